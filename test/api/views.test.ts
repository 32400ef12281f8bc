// The list and detail views of timezone, vessel and sighting, the demo data, and how `vesselName` is localized.
import { expect } from 'chai';
import { sharedService, startService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';

describe('views', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  describe('the demo data (a service of its own, so no other test has touched it)', () => {
    let fresh: TestService;
    before(async () => { fresh = await startService(); });
    after(async () => { await fresh?.stop(); });

    it('when vessel −1 is read, then it is the Klingon Warbird in both languages at version 0', async () => {
      const api = await apiClient(fresh);
      const { data, response } = await api.GET('/vessel/{id}', { params: { path: { id: -1 } } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('etag')).to.equal('"0"');
      expect(data)
        .to.deep.equal({ version: 0, vesselId: -1, vesselName: { en: 'Klingon Warbird', de: 'Klingonischer Jäger' } });
    });

    it('when vessel −2 is read, then it is the Space Shuttle at version 0', async () => {
      const api = await apiClient(fresh);
      const { data } = await api.GET('/vessel/{id}', { params: { path: { id: -2 } } });
      expect(data)
        .to.deep.equal({ version: 0, vesselId: -2, vesselName: { en: 'Space Shuttle', de: 'Space Shuttle' } });
    });

    it('when sighting −1 is read, ' +
      'then it is the demo sighting of vessel −1 with its vessel as one string', async () => {
      const api = await apiClient(fresh);
      const { data, response } = await api.GET('/sighting/{id}', { params: { path: { id: -1 } } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('etag')).to.equal('"0"');
      expect(data).to.deep.equal({
        version: 0, sightingId: -1, sightingMemo: 'unheimlich!',
        vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone: null, sightingDate: null,
      });
    });

    it('when the vessels and sightings are listed, ' +
      'then exactly the demo records come back in the list view, by id', async () => {
      const api = await apiClient(fresh);
      const vessels = await api.GET('/vessel');
      expect(vessels.response.status).to.equal(200);
      expect(vessels.data).to.deep.equal([{ vesselId: -2, vesselName: 'Space Shuttle' },
        { vesselId: -1, vesselName: 'Klingon Warbird' }]);
      const sightings = await api.GET('/sighting');
      expect(sightings.data).to.deep.equal([{ sightingId: -1, vessel: { vesselId: -1, vesselName: 'Klingon Warbird' },
        sightingTimezone: null, sightingDate: null }]);
    });
  });

  describe('timezone', () => {
    it('when Europe/Berlin is looked up by name, ' +
      'then the list view has exactly its negative seeded id and name', async () => {
      const api = await apiClient(service);
      const { data, response } = await api.GET('/timezone', { params: { query: { timezoneName: 'Europe/Berlin' } } });
      expect(response.status).to.equal(200);
      const id = data?.[0]?.timezoneId;
      expect(id).to.be.a('number').below(0);
      expect(data).to.deep.equal([{ timezoneId: id, timezoneName: 'Europe/Berlin' }]);
    });

    it('when a seeded time zone is read by its id, then the detail view adds the version', async () => {
      const api = await apiClient(service);
      const { data: list } = await api.GET('/timezone', { params: { query: { timezoneName: 'Asia/Tokyo' } } });
      const id = list![0]!.timezoneId;
      const { data, response } = await api.GET('/timezone/{id}', { params: { path: { id } } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('etag')).to.equal('"0"');
      expect(data).to.deep.equal({ version: 0, timezoneId: id, timezoneName: 'Asia/Tokyo' });
    });

    it('when the time zones are listed, then the IANA zones are there with negative ids, ordered by id', async () => {
      const api = await apiClient(service);
      const { data } = await api.GET('/timezone');
      const seeded = data!.filter((zone) => zone.timezoneId < 0);
      expect(seeded.length).to.be.above(300);
      expect(seeded.map((zone) => zone.timezoneName))
        .to.include.members(['Europe/Berlin', 'America/New_York', 'Africa/Abidjan']);
      const ids = data!.map((zone) => zone.timezoneId);
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
    });
  });

  describe('vessel and sighting', () => {
    it('when a vessel is listed, ' +
      'then its name is one string in the locale; its detail view has the language map', async () => {
      const vesselId = await createVessel(service, { vesselName: { en: 'Enterprise', de: 'Unternehmen' } });
      const api = await apiClient(service);
      const list = await api.GET('/vessel', { params: { query: { vesselId } } });
      expect(list.data).to.deep.equal([{ vesselId, vesselName: 'Enterprise' }]);
      const detail = await api.GET('/vessel/{id}', { params: { path: { id: vesselId } } });
      expect(detail.data).to.deep.equal({ version: 0, vesselId, vesselName: { en: 'Enterprise', de: 'Unternehmen' } });
    });

    it('when a sighting is listed, ' +
      'then the list view has no version and no memo; the detail view has both', async () => {
      const vesselId = await createVessel(service, { vesselName: { en: 'Voyager', de: 'Reisender' } });
      const body = buildSighting({ vessel: { vesselId }, sightingTimezone: 'Europe/Berlin',
        sightingDate: '2026-11-22T21:30:00.000' });
      const sightingId = await createSighting(service, body);
      const api = await apiClient(service);
      const list = await api.GET('/sighting', { params: { query: { sightingId } } });
      expect(list.response.status).to.equal(200);
      expect(list.data).to.deep.equal([
        { sightingId, vessel: { vesselId, vesselName: 'Voyager' }, sightingTimezone: 'Europe/Berlin',
          sightingDate: '2026-11-22T21:30:00.000' },
      ]);
      const detail = await api.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
      expect(detail.data).to.deep.equal({
        version: 0, sightingId, sightingMemo: body.sightingMemo,
        vessel: { version: 0, vesselId, vesselName: 'Voyager' }, sightingTimezone: 'Europe/Berlin',
        sightingDate: '2026-11-22T21:30:00.000',
      });
    });
  });

  describe('vesselName as one string: the request locale, then en, then the first key, else null', () => {
    /** The vessel's name as the vessel list view and the sighting detail view show it, in a language. */
    async function shownNames(names: Record<string, string>, language?: string) {
      const vesselId = await createVessel(service, { vesselName: names });
      const sightingId = await createSighting(service, buildSighting({ vessel: { vesselId } }));
      const api = await apiClient(service, { headers: language ? { 'Accept-Language': language } : {} });
      const list = await api.GET('/vessel', { params: { query: { vesselId } } });
      const sighting = await api.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
      const sightings = await api.GET('/sighting', { params: { query: { sightingId } } });
      return [list.data?.[0]?.vesselName, sighting.data?.vessel.vesselName, sightings.data?.[0]?.vessel.vesselName];
    }

    it('when the locale is de and there is a de text, then the de text is shown', async () => {
      expect(await shownNames({ en: 'Bird of Prey', de: 'Bird-of-Prey (de)' }, 'de'))
        .to.deep.equal(Array(3).fill('Bird-of-Prey (de)'));
    });

    it('when there is no text in the locale, then the en text is shown', async () => {
      expect(await shownNames({ fr: 'Oiseau de proie', en: 'Bird of Prey' }, 'de'))
        .to.deep.equal(Array(3).fill('Bird of Prey'));
    });

    it('when there is neither the locale nor en, then the text of the first key is shown', async () => {
      expect(await shownNames({ fr: 'Oiseau de proie', it: 'Uccello da preda' }))
        .to.deep.equal(Array(3).fill('Oiseau de proie'));
    });

    it('when the vessel has no texts at all, then the name is null', async () => {
      expect(await shownNames({})).to.deep.equal([null, null, null]);
    });

    it('when only a regional key such as de_AT or de-CH matches the locale de, then its text is shown', async () => {
      expect(await shownNames({ en: 'Shuttle', de_AT: 'Raumfähre (AT)' }, 'de'))
        .to.deep.equal(Array(3).fill('Raumfähre (AT)'));
      expect(await shownNames({ en: 'Shuttle', 'de-CH': 'Raumfähre (CH)' }, 'de-CH'))
        .to.deep.equal(Array(3).fill('Raumfähre (CH)'));
    });

    it('when the en text is stored under en_US, then it is the en fallback', async () => {
      expect(await shownNames({ fr: 'Navette', en_US: 'Shuttle (US)' })).to.deep.equal(Array(3).fill('Shuttle (US)'));
    });
  });
});
