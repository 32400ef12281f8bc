// Optimistic locking by `version`: a stale version is a 409 and writes nothing; of concurrent updates one wins.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, buildTimezone, createSighting, createTimezone, createVessel,
  unique } from '../support/fixtures.ts';

const entityChanged = {
  en: 'The record was changed by someone else in the meantime; read it again and repeat your change.',
  de: 'Der Datensatz wurde inzwischen von jemand anderem geändert; bitte neu lesen und die Änderung wiederholen.',
};

describe('optimistic locking', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  describe('a stale version', () => {
    it('when a sighting is replaced with the version read before someone else\'s update, ' +
      'then 409 and nothing is written', async () => {
      const api = await apiClient(service);
      const id = await createSighting(service);
      const path = { params: { path: { id } } };
      const winner = buildSighting({ sightingTimezone: 'Asia/Tokyo' });
      expect((await api.PUT('/sighting/{id}', { ...path, body: { ...winner, version: 0 } })).response.status)
        .to.equal(204);

      const { response, error } =
        await api.PUT('/sighting/{id}', { ...path, body: { ...buildSighting(), version: 0 } });

      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: entityChanged.en });
      const { data } = await api.GET('/sighting/{id}', path);
      expect(data).to.deep.equal({
        version: 1, sightingId: id, sightingMemo: winner.sightingMemo,
        vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' },
        sightingTimezone: 'Asia/Tokyo', sightingDate: null,
      });
    });

    it('when the request asks for German, then the 409 message is German', async () => {
      const id = await createSighting(service);
      const api = await apiClient(service, { headers: { 'Accept-Language': 'de' } });

      const { response, error } =
        await api.PUT('/sighting/{id}', { params: { path: { id } }, body: { ...buildSighting(), version: 3 } });

      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: entityChanged.de });
    });

    it('when a vessel is replaced with a stale version, ' +
      'then 409 and neither the vessel nor its names are changed', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const names = { en: unique('Defiant'), de: unique('Trotzig') };
      const id = await createVessel(service, { vesselName: names });
      const path = { params: { path: { id } } };
      expect((await api.PUT('/vessel/{id}', { ...path,
        body: { version: 0, vesselName: { ...names, de: unique('Verteidiger') } } })).response.status).to.equal(204);
      const { data: before } = await api.GET('/vessel/{id}', path);

      const { response, error } =
        await api.PUT('/vessel/{id}', { ...path, body: { version: 0, vesselName: { fr: 'Défiant' } } });

      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: entityChanged.en });
      expect(before!.version).to.equal(1);
      expect((await api.GET('/vessel/{id}', path)).data).to.deep.equal(before);
    });

    it('when a time zone is replaced with a version from the future, then 409 and nothing is written', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const timezoneName = unique('Test/Stale');
      const id = await createTimezone(service, { timezoneName });
      const path = { params: { path: { id } } };

      const { response, error } =
        await api.PUT('/timezone/{id}', { ...path, body: { ...buildTimezone(), version: 1 } });

      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: entityChanged.en });
      expect((await api.GET('/timezone/{id}', path)).data).to.deep.equal({ version: 0, timezoneId: id, timezoneName });
    });
  });

  describe('concurrent updates with the same version', () => {
    it('when five clients replace one sighting at once, ' +
      'then exactly one wins with 204, the others get 409, and the winner\'s state stays', async () => {
      const api = await apiClient(service);
      const id = await createSighting(service);
      const path = { params: { path: { id } } };
      const bodies = Array.from({ length: 5 },
        (_, i) => ({ ...buildSighting({ sightingMemo: unique(`client ${i}`) }), version: 0 }));

      const results = await Promise.all(bodies.map((body) => api.PUT('/sighting/{id}', { ...path, body })));

      const statuses = results.map((r) => r.response.status);
      expect(statuses.filter((s) => s === 204), `statuses ${statuses}`).to.have.length(1);
      expect(statuses.filter((s) => s === 409), `statuses ${statuses}`).to.have.length(4);
      for (const loser of results.filter((r) => r.response.status === 409))
        expect(loser.error).to.deep.equal({ general: entityChanged.en });
      const winner = bodies[statuses.indexOf(204)]!;
      const { data } = await api.GET('/sighting/{id}', path);
      expect(data).to.deep.equal({
        version: 1, sightingId: id, sightingMemo: winner.sightingMemo,
        vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone: null, sightingDate: null,
      });
    });

    it('when five admins rename one vessel at once, ' +
      'then exactly one wins and the names are the winner\'s only', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const id = await createVessel(service);
      const path = { params: { path: { id } } };
      const bodies = Array.from({ length: 5 },
        (_, i) => ({ version: 0, vesselName: { en: unique(`name ${i}`), [`x${i}`]: `only client ${i}` } }));

      const results = await Promise.all(bodies.map((body) => api.PUT('/vessel/{id}', { ...path, body })));

      const statuses = results.map((r) => r.response.status);
      expect(statuses.filter((s) => s === 204), `statuses ${statuses}`).to.have.length(1);
      expect(statuses.filter((s) => s === 409), `statuses ${statuses}`).to.have.length(4);
      const winner = bodies[statuses.indexOf(204)]!;
      expect((await api.GET('/vessel/{id}', path)).data)
        .to.deep.equal({ version: 1, vesselId: id, vesselName: winner.vesselName });
    });

    it('when five clients replace one time zone at once, then exactly one wins', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const id = await createTimezone(service);
      const path = { params: { path: { id } } };
      const bodies = Array.from({ length: 5 }, () => ({ ...buildTimezone(), version: 0 }));

      const results = await Promise.all(bodies.map((body) => api.PUT('/timezone/{id}', { ...path, body })));

      const statuses = results.map((r) => r.response.status);
      expect(statuses.filter((s) => s === 204), `statuses ${statuses}`).to.have.length(1);
      expect(statuses.filter((s) => s === 409), `statuses ${statuses}`).to.have.length(4);
      const winner = bodies[statuses.indexOf(204)]!;
      expect((await api.GET('/timezone/{id}', path)).data)
        .to.deep.equal({ version: 1, timezoneId: id, timezoneName: winner.timezoneName });
    });
  });
});
