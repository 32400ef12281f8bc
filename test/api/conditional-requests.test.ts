// Conditional requests (RFC 9110 §13): ETag is the version; If-None-Match on GET, If-Match on PUT and DELETE.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';

const preconditionFailed = { general: 'The record does not match the If-Match condition.' };

describe('conditional requests', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** A sighting at version 1 (created, then replaced once), with the body of that replacement. */
  async function sightingAtVersion1() {
    const api = await apiClient(service);
    const id = await createSighting(service);
    const body = buildSighting({ sightingTimezone: 'Europe/Paris' });
    const { response } = await api.PUT('/sighting/{id}', { params: { path: { id } }, body: { ...body, version: 0 } });
    expect(response.status).to.equal(204);
    expect(response.headers.get('ETag')).to.equal('"1"');
    const expected = {
      version: 1, sightingId: id, sightingMemo: body.sightingMemo,
      vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' },
      sightingTimezone: 'Europe/Paris', sightingDate: null,
    };
    return { api, id, path: { id }, expected };
  }

  describe('ETag and If-None-Match on GET', () => {
    it('when a record is read, then its ETag is its version in quotes', async () => {
      const { api, path, expected } = await sightingAtVersion1();

      const { response, data } = await api.GET('/sighting/{id}', { params: { path } });

      expect(response.status).to.equal(200);
      expect(response.headers.get('ETag')).to.equal('"1"');
      expect(data).to.deep.equal(expected);
    });

    it('when If-None-Match names the current tag, then 304 with no body', async () => {
      const { api, path } = await sightingAtVersion1();

      const { response } =
        await api.GET('/sighting/{id}', { params: { path, header: { 'If-None-Match': '"1"' } }, parseAs: 'text' });

      expect(response.status).to.equal(304);
      expect(response.headers.get('ETag')).to.equal('"1"');
      expect(await response.text()).to.equal('');
    });

    it('when If-None-Match lists the current tag among others, or weakly, then 304', async () => {
      const { api, path } = await sightingAtVersion1();

      for (const tag of ['"0", "1"', 'W/"1"', '*']) {
        const { response } =
          await api.GET('/sighting/{id}', { params: { path, header: { 'If-None-Match': tag } }, parseAs: 'text' });
        expect(response.status, tag).to.equal(304);
      }
    });

    it('when If-None-Match names an old tag, then 200 with the record', async () => {
      const { api, path, expected } = await sightingAtVersion1();

      const { response, data } =
        await api.GET('/sighting/{id}', { params: { path, header: { 'If-None-Match': '"0"' } } });

      expect(response.status).to.equal(200);
      expect(response.headers.get('ETag')).to.equal('"1"');
      expect(data).to.deep.equal(expected);
    });

    it('when a vessel is read with its current tag, then 304 too', async () => {
      const api = await apiClient(service);
      const id = await createVessel(service);

      const { response } = await api.GET('/vessel/{id}',
        { params: { path: { id }, header: { 'If-None-Match': '"0"' } }, parseAs: 'text' });

      expect(response.status).to.equal(304);
    });
  });

  describe('If-Match on PUT', () => {
    it('when If-Match names another version, then 412 and nothing is written', async () => {
      const { api, path, expected } = await sightingAtVersion1();

      const { response, error } = await api.PUT('/sighting/{id}',
        { params: { path, header: { 'If-Match': '"0"' } }, body: { ...buildSighting(), version: 1 } });

      expect(response.status).to.equal(412);
      expect(error).to.deep.equal(preconditionFailed);
      expect((await api.GET('/sighting/{id}', { params: { path } })).data).to.deep.equal(expected);
    });

    it('when the request asks for German, then the 412 message is German', async () => {
      const { path } = await sightingAtVersion1();
      const api = await apiClient(service, { headers: { 'Accept-Language': 'de' } });

      const { response, error } = await api.PUT('/sighting/{id}',
        { params: { path, header: { 'If-Match': '"7"' } }, body: { ...buildSighting(), version: 1 } });

      expect(response.status).to.equal(412);
      expect(error).to.deep.equal({ general: 'Der Datensatz entspricht nicht der If-Match-Bedingung.' });
    });

    for (const ifMatch of ['"1"', '"0", "1"', '*']) {
      it(`when If-Match is ${ifMatch} on a record at version 1, then the update proceeds`, async () => {
        const { api, id, path } = await sightingAtVersion1();
        const body = buildSighting({ sightingMemo: unique('matched') });

        const { response } = await api.PUT('/sighting/{id}',
          { params: { path, header: { 'If-Match': ifMatch } }, body: { ...body, version: 1 } });

        expect(response.status).to.equal(204);
        expect(response.headers.get('ETag')).to.equal('"2"');
        expect((await api.GET('/sighting/{id}', { params: { path } })).data).to.deep.equal({
          version: 2, sightingId: id, sightingMemo: body.sightingMemo,
          vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' },
          sightingTimezone: null, sightingDate: null,
        });
      });
    }

    it('when If-Match is a weak tag, then it does not match (strong comparison) and the answer is 412', async () => {
      const { api, path, expected } = await sightingAtVersion1();

      const { response, error } = await api.PUT('/sighting/{id}',
        { params: { path, header: { 'If-Match': 'W/"1"' } }, body: { ...buildSighting(), version: 1 } });

      expect(response.status).to.equal(412);
      expect(error).to.deep.equal(preconditionFailed);
      expect((await api.GET('/sighting/{id}', { params: { path } })).data).to.deep.equal(expected);
    });
  });

  describe('If-Match on DELETE', () => {
    it('when If-Match names another version, then 412 and the record stays', async () => {
      const { api, path, expected } = await sightingAtVersion1();

      const { response, error } =
        await api.DELETE('/sighting/{id}', { params: { path, header: { 'If-Match': '"0"' } } });

      expect(response.status).to.equal(412);
      expect(error).to.deep.equal(preconditionFailed);
      expect((await api.GET('/sighting/{id}', { params: { path } })).data).to.deep.equal(expected);
    });

    for (const ifMatch of ['"1"', '*']) {
      it(`when If-Match is ${ifMatch} on a record at version 1, then the delete proceeds`, async () => {
        const { api, path } = await sightingAtVersion1();

        const { response } = await api.DELETE('/sighting/{id}', { params: { path, header: { 'If-Match': ifMatch } } });

        expect(response.status).to.equal(204);
        const { response: read, error } = await api.GET('/sighting/{id}', { params: { path } });
        expect(read.status).to.equal(404);
        expect(error).to.deep.equal({ general: 'The record does not exist.' });
      });
    }

    it('when a vessel is deleted with a mismatching If-Match, then 412 and the vessel stays', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const id = await createVessel(service);

      const { response, error } =
        await api.DELETE('/vessel/{id}', { params: { path: { id }, header: { 'If-Match': '"5"' } } });

      expect(response.status).to.equal(412);
      expect(error).to.deep.equal(preconditionFailed);
      expect((await api.GET('/vessel/{id}', { params: { path: { id } } })).response.status).to.equal(200);
    });
  });
});
