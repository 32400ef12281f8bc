// Query by example (POST /{resource}/qbe): which records an example matches, in which view and order.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, buildVessel, createSighting, createTimezone, createVessel,
  unique } from '../support/fixtures.ts';

type SightingExample = { sightingId?: number; version?: number; sightingMemo?: string; sightingTimezone?: string;
  sightingDate?: string | null; vessel?: { vesselId?: number; version?: number; vesselName?: string } };

describe('query by example', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** The sighting's detail view as GET answers it: what a query result must contain for it. */
  async function detail(sightingId: number) {
    const { data, response } =
      await (await apiClient(service)).GET('/sighting/{id}', { params: { path: { id: sightingId } } });
    expect(response.status).to.equal(200);
    return data!;
  }

  async function querySightings(body: SightingExample, headers: Record<string, string> = {}) {
    const { data, response } =
      await (await apiClient(service, { headers })).POST('/sighting/qbe', { body: body as never });
    return { status: response.status, body: data };
  }

  async function sightingIds(body: SightingExample): Promise<number[] | number> {
    const { status, body: found } = await querySightings(body);
    return status === 200 ? found!.map((s) => s.sightingId) : status;
  }

  describe('sighting', () => {
    it('when the example sets only the memo, ' +
      'then exactly the sightings whose memo contains it match, in the detail view', async () => {
      const tag = unique('only');
      const vesselId = await createVessel(service, buildVessel({ vesselName: { en: `${tag} Cutter` } }));
      const id = await createSighting(service, buildSighting({ sightingMemo: `${tag} seen`, vessel: { vesselId },
        sightingTimezone: 'Europe/Berlin', sightingDate: '2026-01-02T03:04' }));
      await createSighting(service, buildSighting({ sightingMemo: unique('other') }));

      const { status, body } = await querySightings({ sightingMemo: tag });

      expect(status).to.equal(200);
      expect(body).to.deep.equal([{
        version: 0,
        sightingId: id,
        sightingMemo: `${tag} seen`,
        vessel: { version: 0, vesselId, vesselName: `${tag} Cutter` },
        sightingTimezone: 'Europe/Berlin',
        sightingDate: '2026-01-02T03:04:00.000',
      }]);
    });

    it('when a string field is given in another case and from the middle, ' +
      'then it matches as a case-insensitive substring', async () => {
      const tag = unique('Case');
      const id = await createSighting(service,
        buildSighting({ sightingMemo: `Before ${tag} MiddlePart after`, sightingTimezone: 'America/New_York' }));

      expect(await sightingIds({ sightingMemo: `${tag} middlepart`.toUpperCase() })).to.deep.equal([id]);
      expect(await sightingIds({ sightingMemo: tag.toLowerCase(), sightingTimezone: 'new_YORK' })).to.deep.equal([id]);
      expect(await sightingIds({ sightingMemo: tag, sightingTimezone: 'Tokyo' })).to.equal(204);
    });

    it('when the example holds %, _ or \\, then they are literal characters, not wildcards', async () => {
      const vesselId = await createVessel(service);
      const vessel = { vesselId };
      const percent = await createSighting(service, buildSighting({ sightingMemo: '100% sure', vessel }));
      const underscore = await createSighting(service, buildSighting({ sightingMemo: 'a_b', vessel }));
      const backslash = await createSighting(service, buildSighting({ sightingMemo: 'back\\slash', vessel }));
      await createSighting(service, buildSighting({ sightingMemo: 'axb 100 sure backslash', vessel }));

      expect(await sightingIds({ sightingMemo: '%', vessel })).to.deep.equal([percent]);
      expect(await sightingIds({ sightingMemo: '_', vessel })).to.deep.equal([underscore]);
      expect(await sightingIds({ sightingMemo: 'a_b', vessel })).to.deep.equal([underscore]);
      expect(await sightingIds({ sightingMemo: '\\', vessel })).to.deep.equal([backslash]);
      expect(await sightingIds({ sightingMemo: 'k\\s', vessel })).to.deep.equal([backslash]);
      expect(await sightingIds({ sightingMemo: '0%', vessel })).to.deep.equal([percent]);
    });

    it('when ids, version or the date are given, then they match by equality', async () => {
      const vesselId = await createVessel(service);
      const vessel = { vesselId };
      const first = await createSighting(service, buildSighting({ vessel, sightingDate: '2026-03-04T05:06:07.008' }));
      const second = await createSighting(service, buildSighting({ vessel, sightingDate: '2026-03-04T05:06' }));
      const api = await apiClient(service);
      const { response } = await api.PUT('/sighting/{id}',
        { params: { path: { id: second } }, body: { ...buildSighting({ vessel }), version: 0 } });
      expect(response.status).to.equal(204);

      expect(await sightingIds({ sightingId: first })).to.deep.equal([first]);
      expect(await sightingIds({ vessel, version: 1 })).to.deep.equal([second]);
      expect(await sightingIds({ vessel, version: 0 })).to.deep.equal([first]);
      expect(await sightingIds({ vessel, sightingDate: '2026-03-04T05:06:07.008' })).to.deep.equal([first]);
      // A prefix of a stored date is no match: dates are not compared as text.
      expect(await sightingIds({ vessel, sightingDate: '2026-03-04T05:06' })).to.equal(204);
      expect(await sightingIds({ sightingId: first, version: 1 })).to.equal(204);
    });

    it('when the vessel is given by its id, ' +
      'then the vessel\'s other fields in the example are not compared', async () => {
      const vesselId = await createVessel(service);
      const id = await createSighting(service, buildSighting({ vessel: { vesselId } }));
      const other = await createSighting(service, buildSighting());

      expect(await sightingIds({ vessel: { vesselId } })).to.deep.equal([id]);
      expect(await sightingIds({ vessel: { vesselId, vesselName: 'a name no vessel has' } })).to.deep.equal([id]);
      expect(await sightingIds({ sightingId: other, vessel: { vesselId } })).to.equal(204);
    });

    it('when the vessel is given by its name, ' +
      'then it matches any of the vessel\'s texts, case-insensitively, in either language', async () => {
      const tag = unique('qbe');
      const vesselId =
        await createVessel(service, buildVessel({ vesselName: { en: 'Romulan Warbird', de: 'Romulanischer Jäger' } }));
      const id = await createSighting(service, buildSighting({ sightingMemo: `${tag} seen`, vessel: { vesselId } }));
      await createSighting(service,
        buildSighting({ sightingMemo: `${tag} also seen`, vessel: { vesselId: await createVessel(service) } }));

      expect(await sightingIds({ sightingMemo: tag, vessel: { vesselName: 'warbird' } })).to.deep.equal([id]);
      expect(await sightingIds({ sightingMemo: tag, vessel: { vesselName: 'WARBIRD' } })).to.deep.equal([id]);
      expect(await sightingIds({ sightingMemo: tag, vessel: { vesselName: 'jäger' } })).to.deep.equal([id]);
      expect(await sightingIds({ sightingMemo: tag, vessel: { vesselName: 'Bird of Prey' } })).to.equal(204);
      expect(await sightingIds({ sightingMemo: tag, vessel: { version: 0, vesselName: 'romulan' } }))
        .to.deep.equal([id]);
      expect(await sightingIds({ sightingMemo: tag, vessel: { version: 1, vesselName: 'romulan' } })).to.equal(204);
    });

    it('when the vessel is matched by name under locale de, then the German name is the one shown', async () => {
      const tag = unique('qbe');
      const vesselId =
        await createVessel(service, buildVessel({ vesselName: { en: 'Romulan Warbird', de: 'Romulanischer Jäger' } }));
      const id = await createSighting(service,
        buildSighting({ sightingMemo: `${tag} seen`, vessel: { vesselId }, sightingTimezone: '', sightingDate: null }));

      const { status, body } =
        await querySightings({ sightingMemo: tag, vessel: { vesselName: 'warbird' } }, { 'Accept-Language': 'de' });

      expect(status).to.equal(200);
      expect(body).to.deep.equal([{ version: 0, sightingId: id, sightingMemo: `${tag} seen`, vessel: { version: 0,
        vesselId, vesselName: 'Romulanischer Jäger' }, sightingTimezone: null, sightingDate: null }]);
    });

    it('when the example is empty, then every sighting matches, in the detail view and ordered by id', async () => {
      const first = await createSighting(service);
      const second =
        await createSighting(service, buildSighting({ vessel: { vesselId: await createVessel(service) } }));

      const { status, body } = await querySightings({});

      expect(status).to.equal(200);
      const ids = body!.map((s) => s.sightingId);
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
      expect(body).to.deep.include(await detail(first));
      expect(body).to.deep.include(await detail(second));
    });

    it('when several sightings match, then they come ordered by id', async () => {
      const tag = unique('order');
      const ids = [];
      for (let i = 0; i < 3; i++)
        ids.push(await createSighting(service, buildSighting({ sightingMemo: `${tag} ${i}` })));

      const { status, body } = await querySightings({ sightingMemo: tag });

      expect(status).to.equal(200);
      expect(body).to.deep.equal([await detail(ids[0]!), await detail(ids[1]!), await detail(ids[2]!)]);
    });

    it('when nothing matches, then the answer is 204 with no body', async () => {
      const response = await rawRequest(service, 'POST', '/sighting/qbe', {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ sightingMemo: unique('nobody wrote this') }),
      });

      expect(response.status).to.equal(204);
      expect(response.headers.get('content-type')).to.equal(null);
      expect(await response.text()).to.equal('');
    });

    it('when the example has a field the sighting does not have, then the answer is 400 on that field', async () => {
      expect(await rawBody({ sightingMemo: 'x', colour: 'red' }))
        .to.deep.equal({ colour: { message: 'This field is unknown.', key: 'error.field.unknown' } });
    });

    it('when the example\'s vessel has a field a vessel does not have, ' +
      'then the answer is 400 on that field', async () => {
      expect(await rawBody({ vessel: { vesselId: -1, colour: 'red' } }))
        .to.deep.equal({ 'vessel.colour': { message: 'This field is unknown.', key: 'error.field.unknown' } });
    });

    async function rawBody(example: unknown): Promise<unknown> {
      const response = await rawRequest(service, 'POST', '/sighting/qbe',
        { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(example) });
      expect(response.status).to.equal(400);
      return response.json();
    }
  });

  describe('vessel', () => {
    async function queryVessels(body: { vesselId?: number; version?: number; vesselName?: Record<string, string> }) {
      const { data, response } = await (await apiClient(service)).POST('/vessel/qbe', { body });
      return response.status === 200 ? data : response.status;
    }

    it('when vesselName is a string, then it is a 400 saying a language map is expected (any language: ' +
      'query sightings by vessel.vesselName)', async () => {
      const response = await rawRequest(service, 'POST', '/vessel/qbe', { headers: { 'Content-Type': 'application/json',
        'Accept-Language': 'de' }, body: JSON.stringify({ vesselName: 'Warbird' }) });

      expect({ status: response.status, body: await response.json() }).to.deep.equal({ status: 400, body: {
        vesselName: { message: 'Ein Schiffsname muss eine Sprachtabelle sein: ' +
          'ein Objekt mit Texten nach Sprachschlüssel, etwa "de": "Borg-Kubus".', key: 'vessel.name.notMap' },
      } });
    });

    it('when vesselName is a map, then only the text under each given language is compared', async () => {
      const tag = unique('Tag');
      const names = { en: `${tag} Klingon Hunter`, de: `${tag} Klingonischer Jäger` };
      const vesselId = await createVessel(service, { vesselName: names });
      const expected = [{ version: 0, vesselId, vesselName: names }];

      expect(await queryVessels({ vesselId, vesselName: { de: 'jäger' } })).to.deep.equal(expected);
      expect(await queryVessels({ vesselId, vesselName: { en: 'jäger' } })).to.equal(204);
      expect(await queryVessels({ vesselName: { de: tag.toUpperCase() } })).to.deep.equal(expected);
      expect(await queryVessels({ vesselName: { en: `${tag} klingon`, de: 'jäger' } })).to.deep.equal(expected);
      expect(await queryVessels({ vesselName: { en: `${tag} klingon`, de: 'hunter' } })).to.equal(204);
      expect(await queryVessels({ vesselName: { fr: tag } })).to.equal(204);
    });

    it('when the example is empty, then every vessel matches, ordered by id', async () => {
      const names = buildVessel().vesselName;
      const vesselId = await createVessel(service, { vesselName: names });

      const found = await queryVessels({});

      expect(found).to.be.an('array');
      const ids = (found as { vesselId: number }[]).map((v) => v.vesselId);
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
      expect(found).to.deep.include({ version: 0, vesselId, vesselName: names });
    });
  });

  describe('timezone', () => {
    async function queryTimezones(body: { timezoneId?: number; version?: number; timezoneName?: string }) {
      const { data, response } = await (await apiClient(service)).POST('/timezone/qbe', { body });
      return response.status === 200 ? data : response.status;
    }

    it('when the name or the id is given, then the name matches as a substring and the id by equality', async () => {
      const timezoneName = unique('Mars/Olympus_Mons');
      const timezoneId = await createTimezone(service, { timezoneName });

      expect(await queryTimezones({ timezoneName: timezoneName.toUpperCase().slice(5) }))
        .to.deep.equal([{ version: 0, timezoneId, timezoneName }]);
      expect(await queryTimezones({ timezoneId })).to.deep.equal([{ version: 0, timezoneId, timezoneName }]);
      expect(await queryTimezones({ timezoneId, timezoneName: 'Venus' })).to.equal(204);
    });

    it('when the example has an unknown field, then the answer is 400 on that field', async () => {
      const response = await rawRequest(service, 'POST', '/timezone/qbe',
        { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ offset: 2 }) });

      expect(response.status).to.equal(400);
      expect(await response.json())
        .to.deep.equal({ offset: { message: 'This field is unknown.', key: 'error.field.unknown' } });
    });
  });
});
