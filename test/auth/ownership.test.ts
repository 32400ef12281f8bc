// A sighting may be changed only by its creator or an admin (docs/behaviour.md#roles); the creator stays out of the
// views.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, buildVessel, createSighting, createVessel, type SightingCreate } from '../support/fixtures.ts';
import { tokenFor, type User } from '../support/tokens.ts';

const NOT_OWNER = { general: 'Only its creator or an administrator may change this sighting.' };
const claimsOf = (jwt: string): { sub?: string } =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
const NOT_OWNER_DE = { general: 'Nur der Ersteller oder ein Administrator darf diese Sichtung ändern.' };

describe('ownership of sightings', () => {
  let service: TestService;
  let vesselId: number;
  before(async () => {
    service = await sharedService();
    vesselId = await createVessel(service, buildVessel({ vesselName: { en: 'Owned Sloop' } }));
  });

  /** Alice's new sighting and its detail view as the contract lists it (no creator among the fields). */
  async function alicesSighting(overrides: Partial<SightingCreate> = {}) {
    const body = buildSighting({ vessel: { vesselId }, sightingTimezone: 'Europe/Berlin',
      sightingDate: '2026-11-22T21:30:00.000', ...overrides });
    const id = await createSighting(service, body, 'alice');
    const detail = {
      version: 0, sightingId: id, sightingMemo: body.sightingMemo,
      vessel: { version: 0, vesselId, vesselName: 'Owned Sloop' },
      sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30:00.000',
    };
    return { id, detail };
  }

  async function update(user: User, id: number, version: number, sightingMemo: string,
    headers: Record<string, string> = {}) {
    const api = await apiClient(service, { user, headers });
    return api.PUT('/sighting/{id}',
      { params: { path: { id } }, body: { version, sightingMemo, vessel: { vesselId } } });
  }

  async function remove(user: User, id: number) {
    return (await apiClient(service, { user })).DELETE('/sighting/{id}', { params: { path: { id } } });
  }

  async function read(id: number) {
    return (await apiClient(service)).GET('/sighting/{id}', { params: { path: { id } } });
  }

  describe("someone else's sighting", () => {
    it("when bob updates alice's sighting, then 403 and it is unchanged", async () => {
      const { id, detail } = await alicesSighting();
      const { response, error } = await update('bob', id, 0, 'bob was here');
      expect(response.status).to.equal(403);
      expect(error).to.deep.equal(NOT_OWNER);
      expect((await read(id)).data).to.deep.equal(detail);
    });

    it("when bob deletes alice's sighting, then 403 and it is still there", async () => {
      const { id, detail } = await alicesSighting();
      const { response, error } = await remove('bob', id);
      expect(response.status).to.equal(403);
      expect(error).to.deep.equal(NOT_OWNER);
      expect((await read(id)).data).to.deep.equal(detail);
    });

    it("when bob updates alice's sighting with Accept-Language de, then the 403 message is German", async () => {
      const { id } = await alicesSighting();
      const { response, error } = await update('bob', id, 0, 'bob was here', { 'Accept-Language': 'de' });
      expect(response.status).to.equal(403);
      expect(error).to.deep.equal(NOT_OWNER_DE);
    });

    it("when viewer (no writer role) updates alice's sighting, then 403 for the missing role", async () => {
      const { id, detail } = await alicesSighting();
      const { response, error } = await update('viewer', id, 0, 'viewer was here');
      expect(response.status).to.equal(403);
      expect(error).to.deep.equal({ general: 'You are not allowed to do this.' });
      expect((await read(id)).data).to.deep.equal(detail);
    });

    it('when bob changes a sighting that does not exist, ' +
      'then 404 (ownership is checked on a record that exists)', async () => {
      const { response, error } = await update('bob', 9_007_199_254_740_991, 0, 'nobody');
      expect(response.status).to.equal(404);
      expect(error).to.deep.equal({ general: 'The record does not exist.' });
    });
  });

  describe('the creator', () => {
    it('when alice updates her own sighting, then 204 and the change is read back', async () => {
      const { id, detail } = await alicesSighting();
      const { response } = await update('alice', id, 0, 'alice changed it');
      expect(response.status).to.equal(204);
      expect(response.headers.get('etag')).to.equal('"1"');
      expect((await read(id)).data).to.deep.equal({ ...detail, version: 1, sightingMemo: 'alice changed it',
        sightingTimezone: null, sightingDate: null });
    });

    it('when alice deletes her own sighting, then 204 and it is gone', async () => {
      const { id } = await alicesSighting();
      expect((await remove('alice', id)).response.status).to.equal(204);
      expect((await read(id)).response.status).to.equal(404);
    });
  });

  describe('admin', () => {
    it("when admin updates alice's sighting, then 204, and alice still owns it", async () => {
      const { id, detail } = await alicesSighting();
      expect((await update('admin', id, 0, 'admin changed it')).response.status).to.equal(204);
      expect((await read(id)).data).to.deep.equal({ ...detail, version: 1, sightingMemo: 'admin changed it',
        sightingTimezone: null, sightingDate: null });
      // The update must not have made admin the creator: alice may still change it, bob still may not.
      expect((await update('bob', id, 1, 'bob again')).response.status).to.equal(403);
      expect((await update('alice', id, 1, 'alice again')).response.status).to.equal(204);
    });

    it("when admin deletes alice's sighting, then 204 and it is gone", async () => {
      const { id } = await alicesSighting();
      expect((await remove('admin', id)).response.status).to.equal(204);
      expect((await read(id)).response.status).to.equal(404);
    });
  });

  describe('the creator is kept but never shown', () => {
    it('when the sighting is read, then the detail view has exactly the contract fields', async () => {
      const { id, detail } = await alicesSighting();
      const { data } = await read(id);
      expect(Object.keys(data ?? {}))
        .to.have.members(['version', 'sightingId', 'sightingMemo', 'vessel', 'sightingTimezone', 'sightingDate']);
      expect(data).to.deep.equal(detail);
    });

    it('when sightings are queried by example, then the match has exactly the detail fields', async () => {
      const { detail } = await alicesSighting();
      const { data, response } =
        await (await apiClient(service)).POST('/sighting/qbe', { body: { sightingMemo: detail.sightingMemo } });
      expect(response.status).to.equal(200);
      expect(data).to.deep.equal([detail]);
    });

    it('when sightings are listed, then the item has exactly the list fields', async () => {
      const { id } = await alicesSighting();
      const { data } =
        await (await apiClient(service)).GET('/sighting', { params: { query: { after: id - 1, limit: 1 } } });
      expect(data).to.deep.equal([{ sightingId: id, vessel: { vesselId, vesselName: 'Owned Sloop' },
        sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30:00.000' }]);
    });

    it('when the sighting is read as XML, then no creator element appears', async () => {
      const { id } = await alicesSighting();
      const response = await rawRequest(service, 'GET', `/sighting/${id}`, { headers: { Accept: 'text/xml' } });
      expect(response.status).to.equal(200);
      const xml = await response.text();
      expect(xml).to.contain(`<sightingId>${id}</sightingId>`);
      const aliceSubject = claimsOf(await tokenFor(service.realm, 'alice')).sub;
      expect(aliceSubject).to.be.a('string').and.not.equal('');
      expect(xml).not.to.contain(aliceSubject);
      expect(xml).not.to.match(/creator/i);
    });

    it('when a client sends a creator in an update, then 400 and the owner stays alice', async () => {
      const { id, detail } = await alicesSighting();
      const response = await rawRequest(service, 'PUT', `/sighting/${id}`, {
        user: 'bob',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ version: 0, sightingMemo: 'take over', vessel: { vesselId }, creator: 'bob' }),
      });
      expect(response.status).to.equal(400);
      expect(await response.json())
        .to.deep.equal({ creator: { message: 'This field is unknown.', key: 'error.field.unknown' } });
      expect((await read(id)).data).to.deep.equal(detail);
    });
  });
});
