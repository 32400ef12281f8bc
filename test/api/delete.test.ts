// DELETE /{resource}/{id}: 204 then gone; unknown ids 404; a vessel still sighted is a 409 and stays.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, createSighting, createTimezone, createVessel, unique } from '../support/fixtures.ts';

const entityNotFound = { general: 'The record does not exist.' };
const entityInUse = {
  en: 'The record is still referenced by other records and cannot be deleted.',
  de: 'Der Datensatz wird noch von anderen Datensätzen verwendet und kann nicht gelöscht werden.',
};
/** No record has this id: ids users create count up from 1, and it lies within ±(2^53−1). */
const unknownId = 9_007_199_254_740_000;

describe('delete @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when alice deletes her sighting, then 204 with no body, and reading it is a 404', async () => {
    const api = await apiClient(service);
    const id = await createSighting(service);

    const { response } = await api.DELETE('/sighting/{id}', { params: { path: { id } }, parseAs: 'text' });

    expect(response.status).to.equal(204);
    expect(await response.text()).to.equal('');
    const read = await api.GET('/sighting/{id}', { params: { path: { id } } });
    expect(read.response.status).to.equal(404);
    expect(read.error).to.deep.equal(entityNotFound);
  });

  it('when admin deletes a vessel no sighting references, then 204, and reading it is a 404', async () => {
    const api = await apiClient(service, { user: 'admin' });
    const id = await createVessel(service);

    const { response } = await api.DELETE('/vessel/{id}', { params: { path: { id } } });

    expect(response.status).to.equal(204);
    const read = await api.GET('/vessel/{id}', { params: { path: { id } } });
    expect(read.response.status).to.equal(404);
    expect(read.error).to.deep.equal(entityNotFound);
  });

  it('when admin deletes a time zone, then 204, and reading it is a 404', async () => {
    const api = await apiClient(service, { user: 'admin' });
    const id = await createTimezone(service);

    const { response } = await api.DELETE('/timezone/{id}', { params: { path: { id } } });

    expect(response.status).to.equal(204);
    const read = await api.GET('/timezone/{id}', { params: { path: { id } } });
    expect(read.response.status).to.equal(404);
    expect(read.error).to.deep.equal(entityNotFound);
  });

  it('when a record is deleted twice, then the second delete is a 404', async () => {
    const api = await apiClient(service);
    const id = await createSighting(service);
    expect((await api.DELETE('/sighting/{id}', { params: { path: { id } } })).response.status).to.equal(204);

    const { response, error } = await api.DELETE('/sighting/{id}', { params: { path: { id } } });

    expect(response.status).to.equal(404);
    expect(error).to.deep.equal(entityNotFound);
  });

  for (const resource of ['sighting', 'vessel', 'timezone'] as const) {
    it(`when the ${resource} id names no record, then 404 with the localized message`, async () => {
      const api = await apiClient(service, { user: 'admin', headers: { 'Accept-Language': 'de' } });

      const { response, error } = await api.DELETE(`/${resource}/{id}`, { params: { path: { id: unknownId } } });

      expect(response.status).to.equal(404);
      expect(error).to.deep.equal({ general: 'Der Datensatz existiert nicht.' });
    });
  }

  describe('a vessel that sightings reference', () => {
    it('when admin deletes it, then 409 and neither the vessel nor the sighting is deleted; ' +
      'once the sighting is gone, it can be deleted', async () => {
      const admin = await apiClient(service, { user: 'admin' });
      const alice = await apiClient(service);
      const vesselName = { en: unique('Enterprise'), de: unique('Unternehmen') };
      const vesselId = await createVessel(service, { vesselName });
      const sighting =
        buildSighting({ vessel: { vesselId }, sightingTimezone: 'UTC', sightingDate: '2026-11-22T21:30:00.000' });
      const sightingId = await createSighting(service, sighting);

      const { response, error } = await admin.DELETE('/vessel/{id}', { params: { path: { id: vesselId } } });

      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: entityInUse.en });
      expect((await admin.GET('/vessel/{id}', { params: { path: { id: vesselId } } })).data)
        .to.deep.equal({ version: 0, vesselId, vesselName });
      expect((await alice.GET('/sighting/{id}', { params: { path: { id: sightingId } } })).data).to.deep.equal({
        version: 0, sightingId, sightingMemo: sighting.sightingMemo,
        vessel: { version: 0, vesselId, vesselName: vesselName.en }, sightingTimezone: 'UTC',
        sightingDate: '2026-11-22T21:30:00.000',
      });

      expect((await alice.DELETE('/sighting/{id}', { params: { path: { id: sightingId } } })).response.status)
        .to.equal(204);
      expect((await admin.DELETE('/vessel/{id}', { params: { path: { id: vesselId } } })).response.status)
        .to.equal(204);
      expect((await admin.GET('/vessel/{id}', { params: { path: { id: vesselId } } })).response.status).to.equal(404);
    });

    it('when the request asks for German, then the 409 message is German', async () => {
      const vesselId = await createVessel(service);
      await createSighting(service, buildSighting({ vessel: { vesselId } }));
      const admin = await apiClient(service, { user: 'admin', headers: { 'Accept-Language': 'de' } });

      const { response, error } = await admin.DELETE('/vessel/{id}', { params: { path: { id: vesselId } } });

      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: entityInUse.de });
    });
  });
});
