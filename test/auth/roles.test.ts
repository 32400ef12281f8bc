// Realm roles decide what a caller may do (docs/behaviour.md#roles): reader reads, writer adds sightings, admin the
// rest.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, buildTimezone, buildVessel, createSighting, createTimezone, createVessel,
  idFromLocation } from '../support/fixtures.ts';

const FORBIDDEN = { general: 'You are not allowed to do this.' };
const FORBIDDEN_DE = { general: 'Das ist Ihnen nicht erlaubt.' };
const SERVICE_SECRET = process.env.SIGHTING_SERVICE_SECRET ?? 'sighting-service-secret';

/**
 * The service account's token: client credentials, the client authenticated with HTTP Basic (RFC 6749 §4.4, §2.3.1).
 */
async function serviceAccountToken(realm: string): Promise<string> {
  const response = await fetch(`${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`sighting-service:${SERVICE_SECRET}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  const body = await response.json() as { access_token?: string };
  expect(response.status, JSON.stringify(body)).to.equal(200);
  return body.access_token ?? '';
}

/** Takes a raw response or an openapi-fetch result (which has already read the body into `error`). */
async function expectForbidden(result: Response | { response: Response; error?: unknown },
  body: object = FORBIDDEN): Promise<void> {
  const response = result instanceof Response ? result : result.response;
  expect(response.status).to.equal(403);
  expect(result instanceof Response ? await result.json() : result.error).to.deep.equal(body);
}

describe('roles', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  describe('viewer (reader only)', () => {
    it('when viewer lists sightings, then 200 with a list that holds a sighting alice made', async () => {
      const id = await createSighting(service);
      const api = await apiClient(service, { user: 'viewer' });
      const { data, response } = await api.GET('/sighting');
      expect(response.status).to.equal(200);
      expect(data?.map((s) => s.sightingId)).to.include(id);
    });

    it("when viewer reads alice's sighting, then 200 with its detail view", async () => {
      const vesselId = await createVessel(service, buildVessel({ vesselName: { en: 'Viewer Skiff' } }));
      const body =
        buildSighting({ vessel: { vesselId }, sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30' });
      const id = await createSighting(service, body);
      const api = await apiClient(service, { user: 'viewer' });
      const { data, response } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(response.status).to.equal(200);
      expect(data).to.deep.equal({
        version: 0, sightingId: id, sightingMemo: body.sightingMemo,
        vessel: { version: 0, vesselId, vesselName: 'Viewer Skiff' },
        sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30:00.000',
      });
    });

    it('when viewer queries by example, then 200 with the match', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const api = await apiClient(service, { user: 'viewer' });
      const { data, response } = await api.POST('/sighting/qbe', { body: { sightingMemo: body.sightingMemo } });
      expect(response.status).to.equal(200);
      expect(data?.map((s) => s.sightingId)).to.deep.equal([id]);
    });

    it('when viewer creates a sighting, then 403 and nothing is created', async () => {
      const body = buildSighting();
      const api = await apiClient(service, { user: 'viewer' });
      await expectForbidden(await api.POST('/sighting', { body }));
      const found =
        await (await apiClient(service)).POST('/sighting/qbe', { body: { sightingMemo: body.sightingMemo } });
      expect(found.response.status).to.equal(204);
    });

    it('when viewer creates a sighting with Accept-Language de, then the 403 message is German', async () => {
      const api = await apiClient(service, { user: 'viewer', headers: { 'Accept-Language': 'de' } });
      await expectForbidden(await api.POST('/sighting', { body: buildSighting() }), FORBIDDEN_DE);
    });
  });

  describe('alice (reader, writer)', () => {
    it('when alice creates a sighting, then 201', async () => {
      const api = await apiClient(service);
      const { response } = await api.POST('/sighting', { body: buildSighting() });
      expect(response.status).to.equal(201);
    });

    it('when alice creates a vessel or a time zone, then 403', async () => {
      const api = await apiClient(service);
      await expectForbidden(await api.POST('/vessel', { body: buildVessel() }));
      await expectForbidden(await api.POST('/timezone', { body: buildTimezone() }));
    });

    it('when alice updates or deletes a vessel, then 403 and the vessel is unchanged', async () => {
      const vesselName = { en: 'Admin Barge' };
      const id = await createVessel(service, buildVessel({ vesselName }));
      const api = await apiClient(service);
      const path = { params: { path: { id } } };
      await expectForbidden(await api.PUT('/vessel/{id}',
        { ...path, body: { version: 0, vesselName: { en: 'Alice Barge' } } }));
      await expectForbidden(await api.DELETE('/vessel/{id}', path));
      const { data } = await api.GET('/vessel/{id}', path);
      expect(data).to.deep.equal({ version: 0, vesselId: id, vesselName });
    });

    it('when alice updates or deletes a time zone, then 403 and the time zone is unchanged', async () => {
      const body = buildTimezone();
      const id = await createTimezone(service, body);
      const api = await apiClient(service);
      const path = { params: { path: { id } } };
      await expectForbidden(await api.PUT('/timezone/{id}',
        { ...path, body: { version: 0, timezoneName: 'Alice/Zone' } }));
      await expectForbidden(await api.DELETE('/timezone/{id}', path));
      const { data } = await api.GET('/timezone/{id}', path);
      expect(data).to.deep.equal({ version: 0, timezoneId: id, timezoneName: body.timezoneName });
    });
  });

  describe('admin', () => {
    it('when admin creates, updates and deletes a vessel, then 201, 204, 204 and it is gone', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const created = await api.POST('/vessel', { body: buildVessel() });
      expect(created.response.status).to.equal(201);
      const path = { params: { path: { id: idFromLocation(created.response.headers.get('location')) } } };
      const vesselName = { en: 'Renamed Barge', de: 'Umbenannter Kahn' };
      expect((await api.PUT('/vessel/{id}', { ...path, body: { version: 0, vesselName } })).response.status)
        .to.equal(204);
      expect((await api.GET('/vessel/{id}', path)).data)
        .to.deep.equal({ version: 1, vesselId: path.params.path.id, vesselName });
      expect((await api.DELETE('/vessel/{id}', path)).response.status).to.equal(204);
      expect((await api.GET('/vessel/{id}', path)).response.status).to.equal(404);
    });

    it('when admin creates, updates and deletes a time zone, then 201, 204, 204 and it is gone', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const created = await api.POST('/timezone', { body: buildTimezone() });
      expect(created.response.status).to.equal(201);
      const path = { params: { path: { id: idFromLocation(created.response.headers.get('location')) } } };
      const timezoneName = buildTimezone().timezoneName;
      expect((await api.PUT('/timezone/{id}', { ...path, body: { version: 0, timezoneName } })).response.status)
        .to.equal(204);
      expect((await api.GET('/timezone/{id}', path)).data)
        .to.deep.equal({ version: 1, timezoneId: path.params.path.id, timezoneName });
      expect((await api.DELETE('/timezone/{id}', path)).response.status).to.equal(204);
      expect((await api.GET('/timezone/{id}', path)).response.status).to.equal(404);
    });
  });

  describe('the service account (client credentials of sighting-service: reader, writer)', () => {
    const asService = async (method: string, path: string, body?: object) => rawRequest(service, method, path, {
      user: null,
      headers: { Authorization: `Bearer ${await serviceAccountToken(service.realm)}`,
        'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });

    it('when the service account creates a sighting and reads it back, then 201 and 200', async () => {
      const vesselId = await createVessel(service, buildVessel({ vesselName: { en: 'Service Tender' } }));
      const body = buildSighting({ vessel: { vesselId } });
      const created = await asService('POST', '/sighting', body);
      expect(created.status).to.equal(201);
      const id = idFromLocation(created.headers.get('location'));
      const read = await asService('GET', `/sighting/${id}`);
      expect(read.status).to.equal(200);
      expect(await read.json()).to.deep.equal({
        version: 0, sightingId: id, sightingMemo: body.sightingMemo,
        vessel: { version: 0, vesselId, vesselName: 'Service Tender' },
        sightingTimezone: null, sightingDate: null,
      });
    });

    it('when the service account creates a vessel, then 403 (it is no admin)', async () => {
      await expectForbidden(await asService('POST', '/vessel', buildVessel()));
    });
  });
});
