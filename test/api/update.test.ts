// Update: PUT replaces the record, answers 204 with the new version as ETag, and counts versions up by one.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, buildTimezone, createSighting, createTimezone, createVessel,
  unique } from '../support/fixtures.ts';

describe('update @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  describe('sighting', () => {
    it('when a sighting is replaced without its optional fields, ' +
      'then they are cleared and the version is 1', async () => {
      const vesselId = await createVessel(service, { vesselName: { en: 'Excelsior' } });
      const id = await createSighting(service,
        buildSighting({ sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30:00.000' }));
      const api = await apiClient(service);
      const sightingMemo = unique('replaced');
      const { response } = await api.PUT('/sighting/{id}',
        { params: { path: { id } }, body: { version: 0, sightingMemo, vessel: { vesselId } } });
      expect(response.status).to.equal(204);
      expect(await response.text()).to.equal('');
      expect(response.headers.get('etag')).to.equal('"1"');
      const { data } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(data).to.deep.equal({
        version: 1, sightingId: id, sightingMemo, vessel: { version: 0, vesselId, vesselName: 'Excelsior' },
        sightingTimezone: null, sightingDate: null,
      });
    });

    it('when a sighting is updated twice, then each update adds 1 to the version', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const api = await apiClient(service);
      for (const [version, sightingTimezone] of [[0, 'Europe/Paris'], [1, '+01:00']] as const) {
        const { response } =
          await api.PUT('/sighting/{id}', { params: { path: { id } }, body: { ...body, version, sightingTimezone } });
        expect(response.status).to.equal(204);
        expect(response.headers.get('etag')).to.equal(`"${version + 1}"`);
      }
      const { data, response } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(response.headers.get('etag')).to.equal('"2"');
      expect(data).to.deep.include({ version: 2, sightingId: id, sightingMemo: body.sightingMemo,
        sightingTimezone: '+01:00', sightingDate: null });
    });

    it('when the body carries the id of the path, then the update is accepted', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const { response } = await (await apiClient(service)).PUT('/sighting/{id}', {
        params: { path: { id } }, body: { ...body, version: 0, sightingId: id, sightingDate: '2026-01-01T00:00' },
      });
      expect(response.status).to.equal(204);
    });

    it('when the body carries another id than the path, ' +
      'then it is a 400 on sightingId and nothing is written', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const api = await apiClient(service);
      const { error, response } = await api.PUT('/sighting/{id}', {
        params: { path: { id } }, body: { ...body, version: 0, sightingId: id + 1000, sightingMemo: 'changed' },
      });
      expect(response.status).to.equal(400);
      expect(error).to.deep.equal({ sightingId: { message: 'The id in the body must be the one in the path.',
        key: 'error.id.mismatch' } });
      const { data } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(data).to.deep.include({ version: 0, sightingMemo: body.sightingMemo });
    });

    it('when a PUT changes nothing, then it is 204 and the version stays', async () => {
      const body = buildSighting({ sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30:00.000' });
      const id = await createSighting(service, body);
      const api = await apiClient(service);
      // The same values, written differently: the date without seconds is the same date-time.
      const { response } = await api.PUT('/sighting/{id}',
        { params: { path: { id } }, body: { ...body, version: 0, sightingDate: '2026-11-22T21:30' } });
      expect(response.status).to.equal(204);
      expect(response.headers.get('etag')).to.equal('"0"');
      const { data } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(data?.version).to.equal(0);
    });

    it('when the sighting does not exist, then it is a 404 entityNotFound', async () => {
      const { error, response } = await (await apiClient(service)).PUT('/sighting/{id}', {
        params: { path: { id: 9007199254740991 } }, body: { ...buildSighting(), version: 0 },
      });
      expect(response.status).to.equal(404);
      expect(error).to.deep.equal({ general: 'The record does not exist.' });
    });

    it('when the version is missing, then it is a 400 on version', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const { error, response } = await (await apiClient(service)).PUT('/sighting/{id}', {
        params: { path: { id } }, body: body as never,
      });
      expect(response.status).to.equal(400);
      expect(error).to.deep.equal({ version: { message: 'This field is required.', key: 'error.field.required' } });
    });

    it('when an update breaks a field rule, ' +
      'then it is the same 400 as in a create and nothing is written', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const api = await apiClient(service);
      const { error, response } = await api.PUT('/sighting/{id}', {
        params: { path: { id } }, body: { ...body, version: 0, sightingMemo: 'x', sightingTimezone: 'Mars/Olympus' },
      });
      expect(response.status).to.equal(400);
      expect(error).to.deep.equal({
        sightingMemo: { message: 'The memo must have at least 2 characters.', key: 'sighting.memo.minLength' },
        sightingTimezone: { message: 'The time zone must be an IANA time zone id such as Europe/Berlin or an offset ' +
          'such as +02:00.', key: 'sighting.timezone.invalid' },
      });
      const { data } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(data).to.deep.include({ version: 0, sightingMemo: body.sightingMemo, sightingTimezone: null });
    });

    it('when the sighting is moved to a vessel that does not exist, ' +
      'then it is a 400 on vessel and it keeps its vessel', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const api = await apiClient(service);
      const { error, response } = await api.PUT('/sighting/{id}',
        { params: { path: { id } }, body: { ...body, version: 0, vessel: { vesselId: 9007199254740991 } } });
      expect(response.status).to.equal(400);
      expect(error)
        .to.deep.equal({ vessel: { message: 'There is no vessel with this id.', key: 'sighting.vessel.notFound' } });
      const { data } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(data).to.deep.include({ version: 0 });
      expect(data?.vessel.vesselId).to.equal(-1);
    });
  });

  describe('vessel', () => {
    it('when a vessel\'s names change, ' +
      'then its version goes up and the detail view has exactly the new names', async () => {
      const vesselId = await createVessel(service, { vesselName: { en: 'Galileo', de: 'Galilei' } });
      const api = await apiClient(service, { user: 'admin' });
      const { response } = await api.PUT('/vessel/{id}',
        { params: { path: { id: vesselId } }, body: { version: 0, vesselName: { en: 'Galileo II', fr: 'Galilée' } } });
      expect(response.status).to.equal(204);
      expect(response.headers.get('etag')).to.equal('"1"');
      const { data } = await api.GET('/vessel/{id}', { params: { path: { id: vesselId } } });
      expect(data).to.deep.equal({ version: 1, vesselId, vesselName: { en: 'Galileo II', fr: 'Galilée' } });
    });

    it('when only one text of a name changes, then the version still goes up', async () => {
      const vesselId = await createVessel(service, { vesselName: { en: 'Nautilus', de: 'Nautilus' } });
      const api = await apiClient(service, { user: 'admin' });
      const { response } = await api.PUT('/vessel/{id}', { params: { path: { id: vesselId } },
        body: { version: 0, vesselName: { en: 'Nautilus', de: 'Nautilus (de)' } } });
      expect(response.headers.get('etag')).to.equal('"1"');
    });

    it('when a vessel is PUT with the same names, then it is 204 and the version stays', async () => {
      const vesselId = await createVessel(service, { vesselName: { en: 'Orville', de: 'Orville' } });
      const api = await apiClient(service, { user: 'admin' });
      const { response } = await api.PUT('/vessel/{id}', { params: { path: { id: vesselId } },
        body: { version: 0, vesselId, vesselName: { en: 'Orville', de: 'Orville' } } });
      expect(response.status).to.equal(204);
      expect(response.headers.get('etag')).to.equal('"0"');
      expect((await api.GET('/vessel/{id}', { params: { path: { id: vesselId } } })).data)
        .to.deep.equal({ version: 0, vesselId, vesselName: { en: 'Orville', de: 'Orville' } });
    });

    it('when the body carries another vesselId than the path, then it is a 400 on vesselId', async () => {
      const vesselId = await createVessel(service);
      const { error, response } = await (await apiClient(service, { user: 'admin' })).PUT('/vessel/{id}', {
        params: { path: { id: vesselId } }, body: { version: 0, vesselId: -1, vesselName: { en: 'Hijack' } },
      });
      expect(response.status).to.equal(400);
      expect(error).to.deep.equal({ vesselId: { message: 'The id in the body must be the one in the path.',
        key: 'error.id.mismatch' } });
    });

    it('when a vessel is renamed, then its sightings show the new name and keep their own version', async () => {
      const vesselId = await createVessel(service, { vesselName: { en: 'Serenity' } });
      const sightingId = await createSighting(service, buildSighting({ vessel: { vesselId } }));
      await (await apiClient(service, { user: 'admin' })).PUT('/vessel/{id}',
        { params: { path: { id: vesselId } }, body: { version: 0, vesselName: { en: 'Serenity II' } } });
      const { data } = await (await apiClient(service)).GET('/sighting/{id}', { params: { path: { id: sightingId } } });
      expect(data).to.deep.include({ version: 0, vessel: { version: 1, vesselId, vesselName: 'Serenity II' } });
    });
  });

  describe('timezone', () => {
    it('when admin renames a time zone, then it is 204 with ETag "1" and reads back renamed', async () => {
      const timezoneId = await createTimezone(service);
      const timezoneName = buildTimezone().timezoneName;
      const api = await apiClient(service, { user: 'admin' });
      const { response } = await api.PUT('/timezone/{id}',
        { params: { path: { id: timezoneId } }, body: { version: 0, timezoneId, timezoneName } });
      expect(response.status).to.equal(204);
      expect(response.headers.get('etag')).to.equal('"1"');
      expect((await api.GET('/timezone/{id}', { params: { path: { id: timezoneId } } })).data)
        .to.deep.equal({ version: 1, timezoneId, timezoneName });
    });

    it('when a time zone is renamed to a name that exists, ' +
      'then it is a 409 entityExists and it keeps its name', async () => {
      const body = buildTimezone();
      const timezoneId = await createTimezone(service, body);
      const api = await apiClient(service, { user: 'admin' });
      const { error, response } = await api.PUT('/timezone/{id}',
        { params: { path: { id: timezoneId } }, body: { version: 0, timezoneName: 'Europe/Berlin' } });
      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: 'A record with this value exists already.' });
      expect((await api.GET('/timezone/{id}', { params: { path: { id: timezoneId } } })).data)
        .to.deep.equal({ version: 0, timezoneId, timezoneName: body.timezoneName });
    });
  });
});
