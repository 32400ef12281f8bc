// PATCH with JSON Merge Patch (RFC 7396): present members replace, null clears, absent ones stay; the version is
// required.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, buildVessel, createSighting, createVessel, unique } from '../support/fixtures.ts';

const mergePatch = (extra: Record<string, string> = {}) =>
  ({ 'Content-Type': 'application/merge-patch+json', ...extra });

describe('partial update (merge patch) @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when a patch sets one field with If-Match, then only that field changes and the version goes up', async () => {
    const body = buildSighting({ sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30:00.000' });
    const id = await createSighting(service, body);
    const sightingMemo = unique('patched');
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch({ 'If-Match': '"0"' }), body: JSON.stringify({ sightingMemo }) });
    expect(response.status).to.equal(204);
    expect(response.headers.get('etag')).to.equal('"1"');
    const { data } = await (await apiClient(service)).GET('/sighting/{id}', { params: { path: { id } } });
    expect(data).to.deep.include({ version: 1, sightingMemo, sightingTimezone: 'Europe/Berlin',
      sightingDate: '2026-11-22T21:30:00.000' });
  });

  it('when a patch sets a field to null with version, ' +
    'then it is cleared, and return=representation answers 200 with the record', async () => {
    const id = await createSighting(service, buildSighting({ sightingTimezone: 'Europe/Berlin' }));
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`, {
      headers: mergePatch({ Prefer: 'return=representation' }),
      body: JSON.stringify({ version: 0, sightingTimezone: null }),
    });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.include({ version: 1, sightingTimezone: null });
  });

  it('when a vessel patch sets one language to null, then only that text is removed', async () => {
    const id =
      await createVessel(service, buildVessel({ vesselName: { en: 'Defiant', de: 'Trotzig', fr: 'Défiant' } }));
    const response = await rawRequest(service, 'PATCH', `/vessel/${id}`,
      { user: 'admin', headers: mergePatch(), body: JSON.stringify({ version: 0, vesselName: { de: null } }) });
    expect(response.status).to.equal(204);
    const { data } = await (await apiClient(service)).GET('/vessel/{id}', { params: { path: { id } } });
    expect(data!.vesselName).to.deep.equal({ en: 'Defiant', fr: 'Défiant' });
  });

  it('when a vessel patch names the language key __proto__, then that text is stored like any other', async () => {
    const id = await createVessel(service, buildVessel({ vesselName: { en: 'Prototype' } }));
    const response = await rawRequest(service, 'PATCH', `/vessel/${id}`,
      { user: 'admin', headers: mergePatch(), body: '{"version": 0, "vesselName": {"__proto__": "x"}}' });
    expect(response.status).to.equal(204);
    const { data } = await (await apiClient(service)).GET('/vessel/{id}', { params: { path: { id } } });
    expect({ version: data!.version, names: Object.entries(data!.vesselName) })
      .to.deep.equal({ version: 1, names: [['en', 'Prototype'], ['__proto__', 'x']] });
  });

  it('when a patch states no version, then 428 and nothing is written', async () => {
    const id = await createSighting(service);
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch(), body: JSON.stringify({ sightingMemo: 'never' }) });
    expect(response.status).to.equal(428);
    expect(await response.json()).to.have.keys('general');
    const { data } = await (await apiClient(service)).GET('/sighting/{id}', { params: { path: { id } } });
    expect(data!.version).to.equal(0);
  });

  it('when a patch states only If-Match: *, then 428 like no version at all, and nothing is written', async () => {
    const id = await createSighting(service);
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch({ 'If-Match': '*' }), body: JSON.stringify({ sightingMemo: 'never' }) });
    expect(response.status).to.equal(428);
    expect(await response.json()).to.have.keys('general');
    const { data } = await (await apiClient(service)).GET('/sighting/{id}', { params: { path: { id } } });
    expect(data).to.deep.include({ version: 0 });
    expect(data!.sightingMemo).not.to.equal('never');
  });

  it('when the version is stale, then 409 for version and 412 for If-Match, and nothing is written', async () => {
    const id = await createSighting(service);
    const stale = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch(), body: JSON.stringify({ version: 3, sightingMemo: 'never' }) });
    expect(stale.status).to.equal(409);
    const staleTag = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch({ 'If-Match': '"3"' }), body: JSON.stringify({ sightingMemo: 'never' }) });
    expect(staleTag.status).to.equal(412);
    const { data } = await (await apiClient(service)).GET('/sighting/{id}/versions', { params: { path: { id } } });
    expect(data).to.have.length(1);
  });

  it('when a patch clears a required field, or sends a server-generated one, then 400 on that field', async () => {
    const id = await createSighting(service);
    const cleared = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch(), body: JSON.stringify({ version: 0, sightingMemo: null }) });
    expect(cleared.status).to.equal(400);
    expect(await cleared.json()).to.have.keys('sightingMemo');
    const generated = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch(), body: JSON.stringify({ version: 0, sightingId: 5 }) });
    expect(generated.status).to.equal(400);
    expect(await generated.json()).to.deep.equal({ sightingId:
      { message: 'This field is generated by the server and must not be sent.', key: 'error.field.serverGenerated' } });
  });

  it('when a patch would give a vessel more than 50 names, then 400 on vesselName', async () => {
    const names = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`l${i}`, `name ${i}`]));
    const id = await createVessel(service, buildVessel({ vesselName: names }));
    const more = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`m${i}`, `name ${i}`]));
    const response = await rawRequest(service, 'PATCH', `/vessel/${id}`,
      { user: 'admin', headers: mergePatch(), body: JSON.stringify({ version: 0, vesselName: more }) });
    expect(response.status).to.equal(400);
    expect(Object.keys(await response.json() as object)).to.deep.equal(['vesselName']);
  });

  it('when a patch comes as application/json or XML, then 415', async () => {
    const id = await createSighting(service);
    for (const type of ['application/json', 'text/xml']) {
      const body = type === 'text/xml' ? '<sighting><version>0</version></sighting>' : '{"version":0}';
      const response =
        await rawRequest(service, 'PATCH', `/sighting/${id}`, { headers: { 'Content-Type': type }, body });
      expect(response.status, type).to.equal(415);
    }
  });

  it('when another user patches alice\'s sighting, then 403', async () => {
    const id = await createSighting(service, buildSighting(), 'alice');
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { user: 'bob', headers: mergePatch(), body: JSON.stringify({ version: 0, sightingMemo: 'mine now' }) });
    expect(response.status).to.equal(403);
  });
});
