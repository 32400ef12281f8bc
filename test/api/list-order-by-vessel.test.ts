// Sightings ordered by their vessel's name (`vesselNameOrder`, issue 57): the name as the list shows it, in the
// caller's language (falling back as the name does), then by `sort`, then by id, and paged by cursor without a row
// lost or repeated.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';

interface Item { sightingId: number; vessel: { vesselName: string | null } }

describe('list order by vessel name', () => {
  let service: TestService;
  let word: string;
  /** Sightings of vessels named Able, Baker and Charlie in English; in German Zeppelin, Yacht, and none (Charlie). */
  const of: Record<'able' | 'baker' | 'charlie', number[]> = { able: [], baker: [], charlie: [] };
  let vesselIds: number[];

  before(async () => {
    service = await sharedService();
    word = unique('vesselorder').replace(/\W/g, '');
    vesselIds = [
      await createVessel(service, { vesselName: { en: `${word} Able`, de: `${word} Zeppelin` } }),
      await createVessel(service, { vesselName: { en: `${word} Baker`, de: `${word} Yacht` } }),
      await createVessel(service, { vesselName: { en: `${word} Charlie` } }),
    ];
    // Created interleaved: the order by name is not the order by id.
    for (let round = 0; round < 2; round++) {
      for (const [index, name] of (['charlie', 'able', 'baker'] as const).entries()) {
        of[name].push(await createSighting(service, buildSighting({ vessel: { vesselId: vesselIds[[2, 0, 1][index]!]! },
          sightingMemo: `${word} ${name} ${round}` }), round ? 'bob' : 'alice'));
      }
    }
  });

  /** A query by example for this test's sightings, every page followed by its `Link`. */
  async function ordered(order: string, language = 'en', limit?: number): Promise<Item[]> {
    const items: Item[] = [];
    let next: string | undefined = `/sighting/qbe?vesselNameOrder=${order}${limit ? `&limit=${limit}` : ''}`;
    while (next) {
      const response = await rawRequest(service, 'POST', next, { body: JSON.stringify({ sightingMemo: word }),
        headers: { 'Content-Type': 'application/json', 'Accept-Language': language } });
      expect(response.status, await response.clone().text()).to.equal(200);
      items.push(...await response.json() as Item[]);
      next = /<[^>]*\/api(\/[^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    return items;
  }
  const ids = (items: Item[]) => items.map((item) => item.sightingId);

  it('when sorted by vessel name in English, then A to Z (ties by id), and Z to A descending', async () => {
    const items = await ordered('asc');
    expect(ids(items)).to.deep.equal([...of.able, ...of.baker, ...of.charlie]);
    expect(items.map((item) => item.vessel.vesselName!.split(' ')[1])).to.deep.equal(
      ['Able', 'Able', 'Baker', 'Baker', 'Charlie', 'Charlie']);
    expect(ids(await ordered('desc'))).to.deep.equal([...of.charlie, ...of.baker, ...of.able]);
  });

  it('when sorted by vessel name in German, then by the German names, a vessel without one by its English one',
    async () => {
      const items = await ordered('asc', 'de');
      expect(ids(items)).to.deep.equal([...of.charlie, ...of.baker, ...of.able]);
      expect(items.map((item) => item.vessel.vesselName!.split(' ')[1])).to.deep.equal(
        ['Charlie', 'Charlie', 'Yacht', 'Yacht', 'Zeppelin', 'Zeppelin']);
    });

  it('when paged one or four at a time by cursor, then every sighting comes once, in the same order', async () => {
    for (const [sort, language] of [['asc', 'en'], ['desc&sort=-sightingId', 'de']] as const) {
      const whole = ids(await ordered(sort, language));
      expect(ids(await ordered(sort, language, 1)), `${sort} ${language}`).to.deep.equal(whole);
      expect(ids(await ordered(sort, language, 4)), `${sort} ${language}`).to.deep.equal(whole);
    }
  });

  it('when combined with sort, then sort orders the sightings of one vessel', async () => {
    expect(ids(await ordered('desc&sort=-sightingId'))).to.deep.equal(
      [...of.charlie.toReversed(), ...of.baker.toReversed(), ...of.able.toReversed()]);
    const response =
      await rawRequest(service, 'GET', `/sighting?vesselId=${vesselIds[0]}&vesselNameOrder=asc&limit=10`);
    expect(response.status).to.equal(200);
    expect(ids(await response.json() as Item[])).to.deep.equal(of.able);
  });

  it('when the order is neither asc nor desc, or the name is asked of sort, then 400 on that parameter', async () => {
    for (const [query, parameter] of [['vesselNameOrder=up', 'vesselNameOrder'], ['sort=vesselName', 'sort'],
      ['sort=vessel.vesselName', 'sort']] as const) {
      const response = await rawRequest(service, 'GET', `/sighting?${query}`);
      expect(response.status, query).to.equal(400);
      expect(await response.json(), query).to.have.keys(parameter);
    }
  });
});
