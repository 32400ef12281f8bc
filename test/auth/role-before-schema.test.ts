// The role is checked before the body: a caller without it gets 403 whatever was sent, so a 400 never teaches
// the schema's rules to someone who may not use the operation.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import type { User } from '../support/tokens.ts';

const FORBIDDEN = { general: 'You are not allowed to do this.' };
const json = { 'Content-Type': 'application/json' };

describe('role before schema', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function answer(user: User, method: string, path: string, body: string,
    headers: Record<string, string> = json): Promise<{ status: number; body: unknown }> {
    const response = await rawRequest(service, method, path, { user, headers, body });
    return { status: response.status, body: await response.json() };
  }

  it('when alice (no admin) creates a vessel with a body that breaks the schema, ' +
    'then 403, not the 400 that would say why', async () => {
    for (const body of ['{"vesselName": "Borg Cube"}', '{}', '{"vesselId": 1, "colour": "grey"}', '{not json', '[]']) {
      expect(await answer('alice', 'POST', '/vessel', body), body).to.deep.equal({ status: 403, body: FORBIDDEN });
    }
  });

  it('when alice sends a broken XML vessel or time zone, then 403 as well', async () => {
    const xml = { 'Content-Type': 'text/xml', 'Accept': 'application/json' };
    expect(await answer('alice', 'POST', '/vessel', '<vessel><vesselName>Borg Cube</vesselName></vessel>', xml))
      .to.deep.equal({ status: 403, body: FORBIDDEN });
    expect(await answer('alice', 'POST', '/timezone', '<timezone><timezoneName>', xml))
      .to.deep.equal({ status: 403, body: FORBIDDEN });
  });

  it('when alice replaces or deletes a vessel or time zone with any body, then 403', async () => {
    expect(await answer('alice', 'PUT', '/vessel/-1', '{"version": -5}'))
      .to.deep.equal({ status: 403, body: FORBIDDEN });
    expect(await answer('alice', 'PUT', '/timezone/-1', '{}')).to.deep.equal({ status: 403, body: FORBIDDEN });
    expect(await answer('alice', 'DELETE', '/timezone/-1', '')).to.deep.equal({ status: 403, body: FORBIDDEN });
  });

  it('when viewer (reader only) records or replaces a sighting with an invalid body, then 403', async () => {
    expect(await answer('viewer', 'POST', '/sighting', '{"sightingMemo": "x"}'))
      .to.deep.equal({ status: 403, body: FORBIDDEN });
    expect(await answer('viewer', 'PUT', '/sighting/-1', '{"sightingMemo": 4711}'))
      .to.deep.equal({ status: 403, body: FORBIDDEN });
  });

  it('when a caller with the role sends the same bodies, then the schema answers: 400 on the fields', async () => {
    expect(await answer('admin', 'POST', '/vessel', '{"vesselName": "Borg Cube"}')).to.deep.equal({ status: 400, body: {
      vesselName: { message: 'A vessel name must be a language map: an object of texts by language key, ' +
        'such as "en": "Borg Cube".', key: 'vessel.name.notMap' },
    } });
    expect(await answer('alice', 'POST', '/sighting', '{"sightingMemo": "x", "vessel": {"vesselId": -1}}'))
      .to.deep.equal({ status: 400, body: {
      sightingMemo: { message: 'The memo must have at least 2 characters.', key: 'sighting.memo.minLength' },
    } });
  });

  it('when viewer queries by example with a bad example, ' +
    'then the schema answers: reading is viewer\'s right', async () => {
    expect(await answer('viewer', 'POST', '/sighting/qbe', '{"colour": "red"}')).to.deep.equal({ status: 400, body: {
      colour: { message: 'This field is unknown.', key: 'error.field.unknown' },
    } });
  });
});
