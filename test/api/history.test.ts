// Record history: every create, update and delete keeps the record as it was, newest first, paged, outliving a delete.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, buildVessel, createSighting, createVessel, unique } from '../support/fixtures.ts';

const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('record history @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when a sighting is created, updated twice and deleted, ' +
    'then its history lists four entries newest first with each version as it was', async () => {
    const body = buildSighting({ sightingTimezone: 'Europe/Berlin' });
    const id = await createSighting(service, body);
    const api = await apiClient(service);
    const memos = [unique('first'), unique('second')];
    for (const [version, sightingMemo] of memos.entries()) {
      expect((await api.PUT('/sighting/{id}',
        { params: { path: { id } }, body: { ...body, version, sightingMemo } })).response.status).to.equal(204);
    }
    expect((await api.DELETE('/sighting/{id}', { params: { path: { id } } })).response.status).to.equal(204);

    const { data, response } = await api.GET('/sighting/{id}/versions', { params: { path: { id } } });
    expect(response.status).to.equal(200);
    expect(data!.map(({ version, change }) => [version, change]))
      .to.deep.equal([[2, 'deleted'], [2, 'updated'], [1, 'updated'], [0, 'created']]);
    expect(data![0]!.record).to.equal(null);
    expect(data!.map((entry) => entry.record?.sightingMemo))
      .to.deep.equal([undefined, memos[1], memos[0], body.sightingMemo]);
    expect(data![3]!.record)
      .to.deep.include({ version: 0, sightingId: id, sightingTimezone: 'Europe/Berlin', sightingDate: null });
    for (const entry of data!) expect(entry.changedAt).to.match(instant);
    // The views never say who: only admins see changedBy.
    expect(data!.some((entry) => 'changedBy' in entry)).to.equal(false);

    expect((await api.GET('/sighting/{id}', { params: { path: { id } } })).response.status).to.equal(404);
    const { data: first } =
      await api.GET('/sighting/{id}/versions/{version}', { params: { path: { id, version: 1 } } });
    expect(first).to.deep.include({ version: 1, sightingMemo: memos[0] });
  });

  it('when a record is older than the history (the demo data, seeded), then it has its created entry', async () => {
    const { data } = await (await apiClient(service)).GET('/vessel/{id}/versions', { params: { path: { id: -1 } } });
    expect(data!.at(-1)).to.deep.include({ version: 0, change: 'created' });
    expect(data!.at(-1)!.record?.vesselName).to.deep.include({ en: 'Klingon Warbird' });
  });

  it('when an admin reads a history, then each entry names who changed it', async () => {
    const id = await createSighting(service, buildSighting(), 'alice');
    const { data } =
      await (await apiClient(service, { user: 'admin' })).GET('/sighting/{id}/versions', { params: { path: { id } } });
    expect(data!.map((entry) => entry.changedBy)).to.deep.equal(['alice']);
  });

  it('when a history is paged with limit, ' +
    'then Link leads through every entry once, and count=exact gives the total', async () => {
    const body = buildSighting();
    const id = await createSighting(service, body);
    const api = await apiClient(service);
    for (const version of [0, 1, 2]) await api.PUT('/sighting/{id}',
      { params: { path: { id } }, body: { ...body, version, sightingMemo: unique('memo') } });
    await api.DELETE('/sighting/{id}', { params: { path: { id } } });
    const seen: string[] = [];
    let url: string | undefined = `/sighting/${id}/versions?limit=2`;
    let total: string | null = null;
    while (url) {
      const response = await rawRequest(service, 'GET', url, { headers: { Prefer: 'count=exact' } });
      expect(response.status).to.equal(200);
      total = response.headers.get('x-total-count');
      expect(response.headers.get('preference-applied')).to.equal('count=exact');
      seen.push(...(await response.json() as Array<{ version: number; change: string }>).map(({ version, change }) =>
        `${version} ${change}`));
      const next = /<[^>]*\/api(\/[^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      url = next;
    }
    expect(seen).to.deep.equal(['3 deleted', '3 updated', '2 updated', '1 updated', '0 created']);
    expect(total).to.equal('5');
  });

  it('when a vessel\'s names change, then its history keeps each language map', async () => {
    const vessel = buildVessel();
    const id = await createVessel(service, vessel);
    const admin = await apiClient(service, { user: 'admin' });
    await admin.PUT('/vessel/{id}', { params: { path: { id } }, body: { version: 0, vesselName: { en: 'Renamed' } } });
    const { data } = await admin.GET('/vessel/{id}/versions', { params: { path: { id } } });
    expect(data!.map((entry) => entry.record?.vesselName)).to.deep.equal([{ en: 'Renamed' }, vessel.vesselName]);
  });

  it('when a replacement changes nothing, then no entry is added', async () => {
    const body = buildSighting();
    const id = await createSighting(service, body);
    const api = await apiClient(service);
    await api.PUT('/sighting/{id}', { params: { path: { id } }, body: { ...body, version: 0 } });
    const { data } = await api.GET('/sighting/{id}/versions', { params: { path: { id } } });
    expect(data!.map((entry) => entry.change)).to.deep.equal(['created']);
  });

  it('when a history is asked for in XML, then it is <versions> of <version> elements', async () => {
    const id = await createSighting(service);
    const response = await rawRequest(service, 'GET', `/sighting/${id}/versions`, { headers: { Accept: 'text/xml' } });
    const text = await response.text();
    expect(text).to.match(/^<\?xml version="1\.0" encoding="UTF-8"\?><versions xmlns:xsi="[^"]+"><version><version>0<\/version><change>created<\/change><changedAt>[^<]+<\/changedAt><record><version>0<\/version><sightingId>/);
    expect(text).to.match(/<\/record><\/version><\/versions>$/);
  });

  it('when a record never existed, or a version is not one it had, then 404', async () => {
    const api = await apiClient(service);
    expect((await api.GET('/sighting/{id}/versions', { params: { path: { id: 987654321 } } })).response.status)
      .to.equal(404);
    const id = await createSighting(service);
    expect((await api.GET('/sighting/{id}/versions/{version}',
      { params: { path: { id, version: 5 } } })).response.status).to.equal(404);
    expect((await rawRequest(service, 'GET', `/sighting/${id}/versions/x1`)).status).to.equal(404);
  });

  it('when a caller without a role asks for a history, then 403', async () => {
    const id = await createSighting(service);
    const response = await rawRequest(service, 'GET', `/sighting/${id}/versions`, { user: null });
    expect(response.status).to.equal(401);
  });
});
