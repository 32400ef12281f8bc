// A list's vessel name is picked by the database in the request's language (src/resources/vessel-names.ts, `joinName`):
// for generated language maps it must be the name the views' own rule picks from the whole map (`localizedName`), in
// JSON lines and CSV exports of whole lists, and in pages.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, ndjsonLines, rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { pick, seededRandom } from '../support/seeded-random.ts';
import { localizedName } from '../../src/resources/vessel-names.ts';

/** Keys that match a locale exactly, by their base language, in other spellings, or not at all; none the same key. */
const keys = ['en', 'en_US', 'EN-gb', 'DE', 'de-AT', 'de_ch', 'fr', 'pt_BR', 'it'];

/** Up to four keys in a random order, each with a text of its own. */
function namesOf(seed: number): Record<string, string> {
  const next = seededRandom(seed);
  const names: Record<string, string> = {};
  for (let count = Math.floor(next() * 5); Object.keys(names).length < count;) {
    const key = pick(next, keys);
    names[key] = `${key} name ${seed}`;
  }
  return names;
}

describe('the vessel name a list shows, picked by the database', () => {
  let service: TestService;
  /** Each generated vessel's id and its names as its detail answers them (in the order they were added). */
  const vessels: Array<{ vesselId: number; names: Record<string, string> }> = [];
  before(async () => {
    service = await sharedService();
    const api = await apiClient(service);
    for (let seed = 1; seed <= 24; seed++) {
      const vesselId = await createVessel(service, { vesselName: namesOf(seed) });
      await createSighting(service, buildSighting({ vessel: { vesselId } }));
      const { data } = await api.GET('/vessel/{id}', { params: { path: { id: vesselId } } });
      vessels.push({ vesselId, names: data!.vesselName });
    }
  });

  const expected = (names: Record<string, string>, locale: string) =>
    localizedName(Object.entries(names), locale);

  for (const [locale, language] of [['en', undefined], ['de', 'de'], ['de', 'de-AT;q=0.9, fr;q=0.5']] as const) {
    const headers: Record<string, string> = language ? { 'Accept-Language': language } : {};
    const shown = `${locale} (Accept-Language: ${language ?? 'none'})`;

    it(`when the whole vessel list is exported in ${shown}, then each name is the map's pick, in JSON lines ` +
      'and in CSV', async () => {
      const lines = await rawRequest(service, 'GET', '/vessel', { headers: { ...headers,
        Accept: 'application/x-ndjson' } });
      expect(lines.status).to.equal(200);
      const byId = new Map((ndjsonLines(await lines.text()) as Array<{ vesselId: number; vesselName: string | null }>)
        .map((line) => [line.vesselId, line.vesselName]));
      const csv = await rawRequest(service, 'GET', '/vessel', { headers: { ...headers, Accept: 'text/csv' } });
      expect(csv.status).to.equal(200);
      const rows = parse(await csv.text(), { columns: true }) as Array<{ vesselId: string; vesselName: string }>;
      const csvById = new Map(rows.map((row) => [Number(row.vesselId), row.vesselName]));
      for (const { vesselId, names } of vessels) {
        const name = expected(names, locale);
        expect(byId.get(vesselId), `vessel ${vesselId} ${JSON.stringify(names)}`).to.equal(name);
        expect(csvById.get(vesselId), `vessel ${vesselId} ${JSON.stringify(names)}`).to.equal(name ?? '');
      }
    });

    it(`when each vessel's sightings are listed in ${shown}, whole and as a page, then the name is the map's pick`,
      async () => {
        const api = await apiClient(service, { headers });
        for (const { vesselId, names } of vessels) {
          const whole = await api.GET('/sighting', { params: { query: { vesselId } } });
          const page = await api.GET('/sighting', { params: { query: { vesselId, limit: 5 } } });
          for (const sighting of [...whole.data!, ...page.data!]) {
            expect(sighting.vessel.vesselName, `vessel ${vesselId} ${JSON.stringify(names)}`)
              .to.equal(expected(names, locale));
          }
        }
      });
  }
});
