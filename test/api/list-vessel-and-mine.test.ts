// The sighting list's `vesselId` and `mine` filters (docs/behaviour.md#list): who else saw this vessel, and which are
// mine.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, buildVessel, createSighting, createVessel, unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';

describe('list: sightings of one vessel, and the caller\'s own', () => {
  let service: TestService;
  let vesselName: string;
  let vesselId: number;
  let alices: number[];
  let bobs: number;
  let elsewhere: number;

  const item = (sightingId: number, sightingTimezone: string | null = null) =>
    ({ sightingId, vessel: { vesselId, vesselName }, sightingTimezone, sightingDate: null });

  async function list(query: string,
    user: User = 'alice'): Promise<{ status: number; body: unknown; link: string | null }> {
    const response = await rawRequest(service, 'GET', `/sighting?${query}`, { user });
    return { status: response.status, body: await response.json(), link: response.headers.get('link') };
  }

  before(async () => {
    service = await sharedService();
    vesselName = unique('sighted');
    vesselId = await createVessel(service, buildVessel({ vesselName: { en: vesselName } }));
    const on = (overrides = {}) => buildSighting({ vessel: { vesselId }, ...overrides });
    alices =
      [await createSighting(service, on()), await createSighting(service, on({ sightingTimezone: 'Europe/Berlin' }))];
    bobs = await createSighting(service, on({ sightingTimezone: 'Europe/Berlin' }), 'bob');
    elsewhere = await createSighting(service, buildSighting(), 'alice');
  });

  it('when the list is filtered by vesselId, ' +
    'then every sighting of that vessel comes back, whoever recorded it, and no other', async () => {
    const { data, response } =
      await (await apiClient(service, { user: 'bob' })).GET('/sighting', { params: { query: { vesselId } } });
    expect({ status: response.status, data }).to.deep.equal({ status: 200,
      data: [item(alices[0]!), item(alices[1]!, 'Europe/Berlin'), item(bobs, 'Europe/Berlin')] });
  });

  it('when mine=true is added, ' +
    'then only the caller\'s own sightings of that vessel come back, in the same view', async () => {
    expect(await list(`vesselId=${vesselId}&mine=true`, 'alice'))
      .to.deep.equal({ status: 200, body: [item(alices[0]!), item(alices[1]!, 'Europe/Berlin')], link: null });
    expect(await list(`vesselId=${vesselId}&mine=true`, 'bob'))
      .to.deep.equal({ status: 200, body: [item(bobs, 'Europe/Berlin')], link: null });
    expect(await list(`vesselId=${vesselId}&mine=true`, 'viewer')).to.deep.equal({ status: 200, body: [], link: null });
  });

  it('when mine=true is given alone, ' +
    'then the caller\'s sightings of every vessel come back and nobody else\'s', async () => {
    const { data } =
      await (await apiClient(service, { user: 'alice' })).GET('/sighting', { params: { query: { mine: true } } });
    const ids = data!.map((s) => s.sightingId);
    expect(ids).to.include.members([...alices, elsewhere]);
    expect(ids).not.to.include(bobs);
    // The demo sighting −1 has no creator: it is nobody's.
    expect(ids).not.to.include(-1);
  });

  it('when mine=false is given, then it is the same as leaving it out', async () => {
    expect(await list(`vesselId=${vesselId}&mine=false`)).to.deep.equal(await list(`vesselId=${vesselId}`));
    expect((await list(`vesselId=${vesselId}&mine=false`)).body).to.have.length(3);
  });

  it('when vesselId and mine are combined with another filter, then all conditions apply (AND)', async () => {
    expect(await list(`vesselId=${vesselId}&sightingTimezone=Europe/Berlin`))
      .to.deep.equal({ status: 200,
        body: [item(alices[1]!, 'Europe/Berlin'), item(bobs, 'Europe/Berlin')], link: null });
    expect(await list(`vesselId=${vesselId}&sightingTimezone=Europe/Berlin&mine=true`, 'bob'))
      .to.deep.equal({ status: 200, body: [item(bobs, 'Europe/Berlin')], link: null });
  });

  it('when the vessel\'s sightings are paged, ' +
    'then the next link keeps vesselId and mine and the pages add up', async () => {
    const first = await list(`vesselId=${vesselId}&mine=true&limit=1`);
    expect(first.body).to.deep.equal([item(alices[0]!)]);
    const next = new URL(/^<([^>]+)>; rel="next"$/.exec(first.link ?? '')![1]!, service.url);
    expect(Object.fromEntries(next.searchParams))
      .to.deep.equal({ vesselId: String(vesselId), mine: 'true', limit: '1', after: String(alices[0]) });
    expect(await list(next.search.slice(1)))
      .to.deep.equal({ status: 200, body: [item(alices[1]!, 'Europe/Berlin')], link: null });
  });

  it('when vesselId names no vessel, then the list is empty', async () => {
    expect(await list('vesselId=987654321')).to.deep.equal({ status: 200, body: [], link: null });
  });

  it('when vesselId is not a whole number or mine is not a boolean, then it is a 400 on that parameter', async () => {
    expect(await list('vesselId=abc')).to.deep.equal({ status: 400,
      body: { vesselId: { message: 'An id must be a whole number.', key: 'error.id.invalid' } }, link: null });
    expect(await list('mine=yes')).to.deep.equal({ status: 400,
      body: { mine: { message: 'This value has the wrong type.', key: 'error.field.type' } }, link: null });
  });
});
