// Only a compact JWS in one Authorization header is a bearer token: genuine tokens altered in form are refused.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { contractProblems } from '../support/contract.ts';
import { rawHttp } from '../support/raw-http.ts';

const INVALID = { status: 401, challenge: 'Bearer realm="sighting", error="invalid_token"',
  body: { general: 'The access token is invalid or has expired.' } };

/** The signature segment re-encoded as padded standard base64 (`+`, `/`, `=`), the same bytes in another alphabet. */
function standardBase64Signature(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return `${header}.${payload}.${Buffer.from(signature, 'base64url').toString('base64')}`;
}

describe('bearer token syntax', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    service = await sharedService();
    token = await tokenFor(service.realm, 'alice');
  });

  async function readWith(authorization: string) {
    const response =
      await rawRequest(service, 'GET', '/sighting/-1', { user: null, headers: { Authorization: authorization } });
    return { status: response.status, challenge: response.headers.get('www-authenticate'),
      body: await response.json() as unknown };
  }

  it('when the genuine token is sent, then it is accepted (the alterations below are what is refused)', async () => {
    expect((await readWith(`Bearer ${token}`)).status).to.equal(200);
  });

  const alterations: [string, (t: string) => string][] = [
    ['a trailing garbage segment', (t) => `${t}.Z2FyYmFnZQ`],
    ['a trailing dot', (t) => `${t}.`],
    ['a leading dot', (t) => `.${t}`],
    ['its signature as padded standard base64', standardBase64Signature],
    ['padding after the signature', (t) => `${t}==`],
    ['only two segments', (t) => t.split('.').slice(0, 2).join('.')],
    ['an empty payload segment', (t) => { const [h, , s] = t.split('.'); return `${h}..${s}`; }],
    ['a second token after a comma', (t) => `${t}, Bearer ${t}`],
  ];
  for (const [what, alter] of alterations) {
    it(`when the genuine token carries ${what}, then 401 invalid_token`, async () => {
      const altered = alter(token);
      expect(altered).to.not.equal(token);
      expect(await readWith(`Bearer ${altered}`)).to.deep.equal(INVALID);
    });
  }

  it('when two Authorization headers carry the genuine token, then 400 invalid_request (RFC 6750 §2)', async () => {
    // Raw bytes: fetch would fold the two headers into one comma-separated line.
    const path = `${new URL(service.api).pathname}/sighting/-1`;
    const response = await rawHttp(service.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ` +
      `Bearer ${token}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
    const body = JSON.parse(response.body) as unknown;
    expect({ status: response.status, challenge: response.headers['www-authenticate'], body }).to.deep.equal({
      status: 400, challenge: 'Bearer realm="sighting", error="invalid_request"',
      body: { Authorization: { message: 'Send one Authorization header only.', key: 'error.authorization.repeated' } },
    });
    expect(contractProblems({ method: 'GET', path: '/sighting/-1', status: 400, headers: new Headers(response.headers),
      body }, 'json')).to.deep.equal([]);
  });
});
