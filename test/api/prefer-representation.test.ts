// `Prefer: return=representation` (RFC 7240) on create and update: the record's detail view comes back with
// `Preference-Applied`; without the preference, or with any other, the answers stay empty (201/204). A create with the
// preference is answered as `create…ReturningRecord` (`POST /{resource}/detail-view`), which always answers the record.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, buildTimezone, buildVessel, createSighting, idFromLocation,
  unique } from '../support/fixtures.ts';
import { declaration, outcome, xmlCall, xmlType, xsiDeclaration } from '../xml/xml-client.ts';

const representation = 'return=representation';

describe('Prefer: return=representation', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** Status, the headers that matter here, and the body of a typed client's answer: one value to compare whole. */
  function answer({ response, data, error }: { response: Response; data?: unknown; error?: unknown }): { status: number;
    headers: Record<string, string | null>; body: unknown } {
    const headers = Object.fromEntries(['etag', 'preference-applied', 'content-type'].map((name) =>
      [name, response.headers.get(name)]));
    return { status: response.status, headers, body: data ?? error };
  }

  /** Admin creates a vessel and a time zone at `paths`: each answers 201 with its detail view. */
  async function expectDetailViewsCreated(paths: { vessel: '/vessel' | '/vessel/detail-view';
    timezone: '/timezone' | '/timezone/detail-view' }, headers: Record<string, string> = {}): Promise<void> {
    const api = await apiClient(service, { user: 'admin' });
    const vessel = buildVessel();
    const timezone = buildTimezone();
    const vesselAnswer = await api.POST(paths.vessel, { body: vessel, headers });
    const timezoneAnswer = await api.POST(paths.timezone, { body: timezone, headers });
    expect([vesselAnswer.response.status, vesselAnswer.data]).to.deep.equal([201, { version: 0,
      vesselId: idFromLocation(vesselAnswer.response.headers.get('location')), vesselName: vessel.vesselName }]);
    expect([timezoneAnswer.response.status, timezoneAnswer.data]).to.deep.equal([201, { version: 0, timezoneId:
      idFromLocation(timezoneAnswer.response.headers.get('location')), timezoneName: timezone.timezoneName }]);
  }

  describe('create', () => {
    it('when alice records a sighting with the preference, '
      + 'then 201 with Location, ETag "0", Preference-Applied and the detail view a read gives', async () => {
      const api = await apiClient(service);
      const body = buildSighting({ sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30' });
      const result = await api.POST('/sighting', { body, headers: { Prefer: representation } });
      const sightingId = idFromLocation(result.response.headers.get('location'));

      const created = answer(result);
      const read = await api.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
      expect(created).to.deep.equal({
        status: 201,
        headers: { 'etag': '"0"', 'preference-applied': representation,
          'content-type': 'application/json; charset=utf-8' },
        body: {
          version: 0, sightingId, sightingMemo: body.sightingMemo,
          vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' },
          sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30:00.000',
        },
      });
      expect(read.data).to.deep.equal(created.body);
    });

    it('when admin creates a vessel and a time zone with the preference, '
      + 'then each body is its detail view', async () => {
      await expectDetailViewsCreated({ vessel: '/vessel', timezone: '/timezone' }, { Prefer: representation });
    });

    it('when the Prefer header asks for nothing this service knows, or return=minimal, '
      + 'then 201 has no body and no Preference-Applied', async () => {
      const api = await apiClient(service);
      for (const prefer of [undefined, 'return=minimal', 'respond-async, wait=10',
        'return=minimal, return=representation']) {
        const result = await api.POST('/sighting',
          { body: buildSighting(), headers: prefer === undefined ? {} : { Prefer: prefer } });
        expect(answer(result), String(prefer)).to.deep.equal({ status: 201,
          headers: { 'etag': '"0"', 'preference-applied': null, 'content-type': null }, body: undefined });
      }
    });

    it('when the preference is spelled in other case, quoted, with parameters or beside others, '
      + 'then it is applied', async () => {
      const api = await apiClient(service);
      for (const prefer of ['RETURN=Representation', 'return="representation"',
        'respond-async, return=representation; foo=bar', 'wait=5,return = representation']) {
        const { status, headers } =
          answer(await api.POST('/sighting', { body: buildSighting(), headers: { Prefer: prefer } }));
        expect({ status, applied: headers['preference-applied'] }, prefer)
          .to.deep.equal({ status: 201, applied: representation });
      }
    });

    it('when an invalid record is sent with the preference, then it is the same 400 as without', async () => {
      const api = await apiClient(service);
      const result = await api.POST('/sighting',
        { body: buildSighting({ sightingMemo: 'x' }), headers: { Prefer: representation } });
      expect(answer(result)).to.deep.equal({
        status: 400,
        headers: { 'etag': null, 'preference-applied': null, 'content-type': 'application/json; charset=utf-8' },
        body: { sightingMemo: { message: 'The memo must have at least 2 characters.',
          key: 'sighting.memo.minLength' } },
      });
    });

    it('when alice records a sighting at /sighting/detail-view without Prefer, '
      + 'then 201 with the detail view and Location under /sighting', async () => {
      const api = await apiClient(service);
      const body = buildSighting({ sightingTimezone: 'Europe/Berlin' });
      const result = await api.POST('/sighting/detail-view', { body });
      const sightingId = idFromLocation(result.response.headers.get('location'));
      const read = await api.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
      expect({ ...answer(result), location: result.response.headers.get('location') }).to.deep.equal({
        status: 201,
        headers: { 'etag': '"0"', 'preference-applied': null, 'content-type': 'application/json; charset=utf-8' },
        body: read.data,
        location: `${new URL(service.api).pathname}/sighting/${sightingId}`,
      });
    });

    it('when admin creates a vessel and a time zone at their /detail-view, '
      + 'then each 201 body is the detail view', async () => {
      await expectDetailViewsCreated({ vessel: '/vessel/detail-view', timezone: '/timezone/detail-view' });
    });

    it('when a record is sent to /detail-view with Prefer: return=minimal, '
      + 'then the record still comes, without Preference-Applied', async () => {
      const api = await apiClient(service);
      const result =
        await api.POST('/sighting/detail-view', { body: buildSighting(), headers: { Prefer: 'return=minimal' } });
      expect({ status: result.response.status, applied: result.response.headers.get('preference-applied'),
        memo: result.data?.sightingMemo })
        .to.deep.include({ status: 201, applied: null }).and.to.have.property('memo').that.is.a('string');
    });

    it('when a vessel is created in XML with the preference, then the 201 body is its XML detail view', async () => {
      const name = unique('Rocinante');
      const response = await xmlCall(service, 'POST', '/vessel', {
        user: 'admin', headers: { Prefer: representation },
        body: `<vessel><vesselName><text xml:lang="en">${name}</text></vesselName></vessel>`,
      });
      const vesselId = idFromLocation(response.headers.get('location'));
      expect(await outcome(response, ['etag', 'preference-applied'])).to.deep.equal({
        status: 201, type: xmlType, headers: { 'etag': '"0"', 'preference-applied': representation },
        body: `${declaration}<vessel><version>0</version><vesselId>${vesselId}</vesselId><vesselName>`
          + `<text xml:lang="en">${name}</text></vesselName></vessel>`,
      });
    });
  });

  describe('update', () => {
    it('when alice replaces her sighting with the preference, '
      + 'then 200 with the new ETag, Preference-Applied and the detail view', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const api = await apiClient(service);
      const sightingMemo = unique('replaced');
      const result = await api.PUT('/sighting/{id}', {
        params: { path: { id }, header: { Prefer: representation } },
        body: { version: 0, sightingMemo, vessel: { vesselId: -2 } },
      });

      expect(answer(result)).to.deep.equal({
        status: 200,
        headers: { 'etag': '"1"', 'preference-applied': representation,
          'content-type': 'application/json; charset=utf-8' },
        body: { version: 1, sightingId: id, sightingMemo, vessel: { version: 0, vesselId: -2,
          vesselName: 'Space Shuttle' }, sightingTimezone: null, sightingDate: null },
      });
    });

    it('when the preference is absent, then the update is 204 with no body and no Preference-Applied', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const result = await (await apiClient(service)).PUT('/sighting/{id}',
        { params: { path: { id } }, body: { ...body, version: 0, sightingMemo: unique('again') } });
      expect(answer(result)).to.deep.equal({ status: 204,
        headers: { 'etag': '"1"', 'preference-applied': null, 'content-type': null }, body: undefined });
    });

    it('when a stale version is sent with the preference, then it is the same 409 as without', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const result = await (await apiClient(service)).PUT('/sighting/{id}',
        { params: { path: { id }, header: { Prefer: representation } }, body: { ...body, version: 3 } });
      expect(answer(result)).to.deep.equal({
        status: 409,
        headers: { 'etag': null, 'preference-applied': null, 'content-type': 'application/json; charset=utf-8' },
        body:
          { general: 'The record was changed by someone else in the meantime; read it again and repeat your change.' },
      });
    });

    it('when a sighting is replaced in XML with the preference, then the 200 body is its XML detail view', async () => {
      const body = buildSighting();
      const id = await createSighting(service, body);
      const sightingMemo = unique('xml');
      const response = await xmlCall(service, 'PUT', `/sighting/${id}`, {
        headers: { Prefer: representation },
        body: `<sighting><version>0</version><sightingMemo>${sightingMemo}</sightingMemo><vessel>`
          + `<vesselId>-1</vesselId></vessel></sighting>`,
      });
      expect(await outcome(response, ['etag', 'preference-applied'])).to.deep.equal({
        status: 200, type: xmlType, headers: { 'etag': '"1"', 'preference-applied': representation },
        body: `${declaration}<sighting ${xsiDeclaration}><version>1</version><sightingId>${id}</sightingId>`
          + `<sightingMemo>${sightingMemo}</sightingMemo>`
          + '<vessel><version>0</version><vesselId>-1</vesselId><vesselName>Klingon Warbird</vesselName></vessel>'
          + '<sightingTimezone xsi:nil="true"/><sightingDate xsi:nil="true"/></sighting>',
      });
    });
  });
});
