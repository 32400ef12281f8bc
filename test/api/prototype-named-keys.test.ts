// A key a client names like an Object.prototype member is an ordinary key: stored, replaced and deleted like any other.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';

const prototypeNames = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];

describe('prototype-named keys', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const json = { 'Content-Type': 'application/json' };
  const call = (method: string, path: string, body?: string, headers: Record<string, string> = json) =>
    rawRequest(service, method, path, { user: 'admin', body, headers });
  const names = async (path: string) =>
    ((await (await call('GET', path)).json()) as { vesselName: Record<string, string> }).vesselName;

  async function create(vesselName: string): Promise<string> {
    const created = await call('POST', '/vessel', `{"vesselName":${vesselName}}`);
    expect(created.status).to.equal(201);
    return created.headers.get('Location')!.slice(new URL(service.api).pathname.length);
  }

  for (const key of prototypeNames) {
    it(`when a vessel has a name under "${key}" and a PUT leaves it out, then the GET no longer shows it`, async () => {
      const path = await create(`{"en":"base","${key}":"keyed"}`);
      // JSON.parse makes "__proto__" an own member; a plain object literal here would not.
      expect(await names(path)).to.deep.equal(JSON.parse(`{"en":"base","${key}":"keyed"}`));
      const replaced = await call('PUT', path, '{"version":0,"vesselName":{"en":"base"}}');
      expect(replaced.status).to.equal(204);
      expect(await names(path)).to.deep.equal({ en: 'base' });
    });
  }

  it('when a merge patch removes or replaces prototype-named names, then exactly those change', async () => {
    const path = await create('{"en":"base","constructor":"c","__proto__":"p","toString":"t"}');
    const patched = await call('PATCH', path, '{"version":0,"vesselName":{"constructor":null,"__proto__":"q"}}',
      { 'Content-Type': 'application/merge-patch+json' });
    expect(patched.status).to.equal(204);
    expect(await names(path)).to.deep.equal(JSON.parse('{"en":"base","__proto__":"q","toString":"t"}'));
  });

  it('when an example names prototype-named language keys or fields, ' +
    'then they are matched or refused, never inherited', async () => {
    const path = await create('{"en":"base","valueOf":"findme-valueof"}');
    const found = await call('POST', '/vessel/qbe', '{"vesselName":{"valueOf":"findme-valueof"}}');
    expect(found.status).to.equal(200);
    expect(((await found.json()) as Array<{ vesselId: number }>).map(({ vesselId }) => `/vessel/${vesselId}`))
      .to.deep.equal([path]);
    for (const field of prototypeNames) {
      const refused = await call('POST', '/sighting/qbe', `{"${field}":"x"}`);
      expect(refused.status, field).to.equal(400);
      expect(await refused.json(), field).to.have.property(field);
    }
  });
});
