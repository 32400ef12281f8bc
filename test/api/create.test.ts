// Create: 201 with an empty body, Location and ETag "0"; what is stored is what a read gives back.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, contractCheckedFetch } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting, buildTimezone, buildVessel, createVessel, idFromLocation } from '../support/fixtures.ts';

describe('create @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** Checks a 201 as the contract describes it and returns the new id. */
  async function expectCreated(response: Response, collection: string): Promise<number> {
    expect(response.status).to.equal(201);
    expect(await response.text()).to.equal('');
    expect(response.headers.get('etag')).to.equal('"0"');
    const location = response.headers.get('location');
    const id = idFromLocation(location);
    expect(location).to.equal(`${new URL(service.api).pathname}/${collection}/${id}`);
    expect(id).to.be.above(0);
    return id;
  }

  /** Reads a record by following a `Location` header, as a client would. */
  async function follow(location: string,
    user: 'alice' | 'admin' = 'alice'): Promise<{ status: number; body: unknown }> {
    const response = await contractCheckedFetch(service)(new URL(location, service.url), {
      headers: { Authorization: `Bearer ${await tokenFor(service.realm, user)}` },
    });
    return { status: response.status, body: await response.json() };
  }

  describe('sighting', () => {
    it('when alice records a sighting, ' +
      'then it is 201 with Location and ETag "0", and the Location reads it back', async () => {
      const vesselId = await createVessel(service, buildVessel({ vesselName: { en: 'Defiant', de: 'Trotzig' } }));
      const body = buildSighting({ vessel: { vesselId }, sightingTimezone: 'Europe/Berlin',
        sightingDate: '2026-11-22T21:30:00.000' });
      const api = await apiClient(service);
      const { response } = await api.POST('/sighting', { body });
      const sightingId = await expectCreated(response, 'sighting');
      expect(await follow(response.headers.get('location')!)).to.deep.equal({
        status: 200,
        body: {
          version: 0, sightingId, sightingMemo: body.sightingMemo,
          vessel: { version: 0, vesselId, vesselName: 'Defiant' }, sightingTimezone: 'Europe/Berlin',
          sightingDate: '2026-11-22T21:30:00.000',
        },
      });
    });

    it('when two sightings are recorded, then each gets a new positive id, the second after the first', async () => {
      const api = await apiClient(service);
      const first =
        idFromLocation((await api.POST('/sighting', { body: buildSighting() })).response.headers.get('location'));
      const second =
        idFromLocation((await api.POST('/sighting', { body: buildSighting() })).response.headers.get('location'));
      expect(first).to.be.above(0);
      expect(second).to.be.above(first);
    });

    it('when the sighting names a vessel that does not exist, ' +
      'then it is a 400 on vessel and nothing is stored', async () => {
      const body = buildSighting({ vessel: { vesselId: 9007199254740991 } });
      const api = await apiClient(service);
      const { error, response } = await api.POST('/sighting', { body });
      expect(response.status).to.equal(400);
      expect(error)
        .to.deep.equal({ vessel: { message: 'There is no vessel with this id.', key: 'sighting.vessel.notFound' } });
      const { data } = await api.GET('/sighting', { params: { query: { sightingMemo: body.sightingMemo } } });
      expect(data).to.deep.equal([]);
    });

    it('when the vessel link carries other fields of the detail view, ' +
      'then they are ignored and the vessel is unchanged', async () => {
      const vesselId = await createVessel(service, buildVessel({ vesselName: { en: 'Rocinante' } }));
      const api = await apiClient(service);
      const { response } = await api.POST('/sighting',
        { body: buildSighting({ vessel: { vesselId, version: 7, vesselName: 'Renamed' } }) });
      const sightingId = await expectCreated(response, 'sighting');
      const { data } = await api.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
      expect(data?.vessel).to.deep.equal({ version: 0, vesselId, vesselName: 'Rocinante' });
      const vessel = await api.GET('/vessel/{id}', { params: { path: { id: vesselId } } });
      expect(vessel.data).to.deep.equal({ version: 0, vesselId, vesselName: { en: 'Rocinante' } });
    });

    for (const [sent, stored] of [
      ['2026-11-22T21:30', '2026-11-22T21:30:00.000'],
      ['2026-11-22T21:30:45', '2026-11-22T21:30:45.000'],
      ['2026-11-22T21:30:45.123', '2026-11-22T21:30:45.123'],
      ['2024-02-29T00:00', '2024-02-29T00:00:00.000'],
      [null, null],
      [undefined, null],
    ] as const) {
      it(`when sightingDate is ${JSON.stringify(sent)}, ` +
        `then it is stored and answered as ${JSON.stringify(stored)}`, async () => {
        const body = buildSighting({ sightingDate: sent });
        const api = await apiClient(service);
        const sightingId = await expectCreated((await api.POST('/sighting', { body })).response, 'sighting');
        const { data } = await api.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
        expect(data).to.deep.equal({
          version: 0, sightingId, sightingMemo: body.sightingMemo,
          vessel: { version: data?.vessel.version, vesselId: -1, vesselName: 'Klingon Warbird' },
          sightingTimezone: null, sightingDate: stored,
        });
      });
    }

    for (const [sent, stored] of [
      ['', null],
      ['   ', null],
      [null, null],
      ['Europe/Berlin', 'Europe/Berlin'],
      ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
      ['Asia/Kolkata', 'Asia/Kolkata'],
      [' europe/berlin ', 'Europe/Berlin'],
      ['UTC', 'UTC'],
      ['+02:00', '+02:00'],
      ['-09:30', '-09:30'],
    ] as const) {
      it(`when sightingTimezone is ${JSON.stringify(sent)}, ` +
        `then it is stored as ${JSON.stringify(stored)}`, async () => {
        const body = buildSighting({ sightingTimezone: sent });
        const api = await apiClient(service);
        const sightingId = await expectCreated((await api.POST('/sighting', { body })).response, 'sighting');
        const { data } = await api.GET('/sighting', { params: { query: { sightingId } } });
        expect(data).to.deep.equal([{ sightingId, vessel: { vesselId: -1, vesselName: 'Klingon Warbird' },
          sightingTimezone: stored, sightingDate: null }]);
      });
    }
  });

  describe('vessel', () => {
    it('when admin creates a vessel with names in several languages, ' +
      'then the Location reads back the language map', async () => {
      const body = buildVessel({ vesselName: { en: 'Millennium Falcon', de: 'Millennium Falke',
        'pt-BR': 'Falcão Milenar', en_US: 'Falcon' } });
      const api = await apiClient(service, { user: 'admin' });
      const { response } = await api.POST('/vessel', { body });
      const vesselId = await expectCreated(response, 'vessel');
      expect(await follow(response.headers.get('location')!)).to.deep.equal({
        status: 200,
        body: { version: 0, vesselId,
          vesselName: { en: 'Millennium Falcon', de: 'Millennium Falke', 'pt-BR': 'Falcão Milenar', en_US: 'Falcon' } },
      });
    });

    it('when admin creates a vessel without any names, then it is stored with an empty language map', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const { response } = await api.POST('/vessel', { body: { vesselName: {} } });
      const vesselId = await expectCreated(response, 'vessel');
      expect(await follow(response.headers.get('location')!))
        .to.deep.equal({ status: 200, body: { version: 0, vesselId, vesselName: {} } });
    });

    it('when alice (not admin) creates a vessel, then it is a 403', async () => {
      const api = await apiClient(service);
      const { error, response } = await api.POST('/vessel', { body: buildVessel() });
      expect(response.status).to.equal(403);
      expect(error).to.deep.equal({ general: 'You are not allowed to do this.' });
    });
  });

  describe('timezone', () => {
    it('when admin creates a time zone, then it gets a positive id and the Location reads it back', async () => {
      const body = buildTimezone();
      const api = await apiClient(service, { user: 'admin' });
      const { response } = await api.POST('/timezone', { body });
      const timezoneId = await expectCreated(response, 'timezone');
      expect(await follow(response.headers.get('location')!))
        .to.deep.equal({ status: 200, body: { version: 0, timezoneId, timezoneName: body.timezoneName } });
    });

    it('when alice (not admin) creates a time zone, then it is a 403 and nothing is stored', async () => {
      const body = buildTimezone();
      const api = await apiClient(service);
      const { error, response } = await api.POST('/timezone', { body });
      expect(response.status).to.equal(403);
      expect(error).to.deep.equal({ general: 'You are not allowed to do this.' });
      expect((await api.GET('/timezone', { params: { query: { timezoneName: body.timezoneName } } })).data)
        .to.deep.equal([]);
    });

    it('when admin creates a time zone whose name exists, ' +
      'then it is a 409 entityExists and the existing one is unchanged', async () => {
      const api = await apiClient(service, { user: 'admin' });
      const { error, response } = await api.POST('/timezone', { body: { timezoneName: 'Europe/Berlin' } });
      expect(response.status).to.equal(409);
      expect(error).to.deep.equal({ general: 'A record with this value exists already.' });
      const { data } = await api.GET('/timezone', { params: { query: { timezoneName: 'Europe/Berlin' } } });
      expect(data).to.have.length(1);
      expect(data![0]!.timezoneId).to.be.below(0);
    });
  });
});
