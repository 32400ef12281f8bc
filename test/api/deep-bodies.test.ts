// A body nested deeper than 32 levels is a 400 on `body`, found before any recursion, in JSON and in XML alike.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';

const deepObject = (levels: number) => `{"vessel":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
const deepArray = (levels: number) => `{"vessel":${'['.repeat(levels)}1${']'.repeat(levels)}}`;
const deepXml = (levels: number) => `<sighting>${'<a>'.repeat(levels)}1${'</a>'.repeat(levels)}</sighting>`;
const tooDeep = { body: { key: 'error.bodyTooDeep', message: 'The request body is nested more than 32 levels deep.' } };

describe('deep bodies', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const send = (method: string, path: string, body: string, type = 'application/json') =>
    rawRequest(service, method, path, { user: 'admin', body, headers: { 'Content-Type': type } });

  for (const [name, body] of [['objects 10,000 deep', deepObject(10_000)], ['arrays 30,000 deep', deepArray(30_000)],
    ['objects 33 deep', deepObject(32)]] as const) {
    for (const [method, path] of [['POST', '/sighting'], ['POST', '/sighting/qbe'], ['POST', '/vessel/qbe'],
      ['PUT', '/vessel/1'],
      ['PATCH', '/sighting/1']] as const) {
      it(`when JSON of ${name} goes to ${method} ${path}, then it is a 400 on body`, async () => {
        const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
        const response = await send(method, path, body, type);
        expect(response.status).to.equal(400);
        expect(await response.json()).to.deep.equal(tooDeep);
      });
    }
  }

  it('when JSON is exactly 32 levels deep, then its depth is no problem (the schema answers)', async () => {
    const response = await send('POST', '/sighting/qbe', deepObject(31));
    expect(response.status).to.equal(400);
    expect(JSON.stringify(await response.json())).not.to.contain('nested');
  });

  it('when brackets and escaped quotes are inside strings, then they nest nothing', async () => {
    const memo = `\\"${'[{'.repeat(100)}\\\\`;
    const response = await send('POST', '/sighting/qbe', `{"sightingMemo":"${memo}"}`);
    expect(response.status).to.equal(204);
  });

  it('when an XML body is nested 8,000 deep (56 KB), then it is a 400 on body', async () => {
    const response = await send('POST', '/sighting', deepXml(8_000), 'application/xml');
    expect(response.status).to.equal(400);
    expect(await response.text()).to.contain('nested more than 32 levels');
  });
});
