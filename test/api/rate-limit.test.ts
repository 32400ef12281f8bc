// RATE_LIMIT_PER_MINUTE: each caller's requests per minute on this instance; beyond it 429 with Retry-After and the
// IETF RateLimit headers, while other callers go on.
import { expect } from 'chai';
import { startService, sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';

const headersOf = (response: Response) => ({
  status: response.status,
  policy: response.headers.get('RateLimit-Policy'),
  limit: response.headers.get('RateLimit')?.replace(/;t=\d+$/, ';t=…'),
  retryAfter: response.headers.get('Retry-After') !== null,
});

describe('rate limiting', () => {
  let service: TestService;
  before(async () => { service = await startService({ RATE_LIMIT_PER_MINUTE: '3' }); });
  after(async () => { await service?.stop(); });

  it('when a caller sends more requests in a minute than the limit, ' +
    'then the ones beyond are 429 with Retry-After, and another caller is still served', async () => {
    const alice = [];
    for (let i = 0; i < 4; i += 1) alice.push(await rawRequest(service, 'GET', '/sighting/-1'));
    const policy = '"per-caller";q=3;w=60';
    expect(alice.map(headersOf)).to.deep.equal([
      { status: 200, policy, limit: '"per-caller";r=2;t=…', retryAfter: false },
      { status: 200, policy, limit: '"per-caller";r=1;t=…', retryAfter: false },
      { status: 200, policy, limit: '"per-caller";r=0;t=…', retryAfter: false },
      { status: 429, policy, limit: '"per-caller";r=0;t=…', retryAfter: true },
    ]);
    const refused = alice[3]!;
    expect(await refused.json()).to.deep.equal({ general: 'Too many requests; please try again in a moment.' });
    expect(Number(refused.headers.get('Retry-After'))).to.be.within(1, 60);

    const bob = await rawRequest(service, 'GET', '/sighting/-1', { user: 'bob' });
    expect(headersOf(bob)).to.deep.equal({ status: 200, policy, limit: '"per-caller";r=2;t=…', retryAfter: false });
  });

  it('when the limited caller asks in German and for XML, then the 429 says so in German XML', async () => {
    const response = await rawRequest(service, 'GET', '/sighting/-1',
      { user: 'viewer', headers: { Accept: 'text/xml', 'Accept-Language': 'de' } });
    for (let i = 0; i < 3; i += 1) await rawRequest(service, 'GET', '/sighting/-1', { user: 'viewer' });
    const refused = await rawRequest(service, 'GET', '/sighting/-1',
      { user: 'viewer', headers: { Accept: 'text/xml', 'Accept-Language': 'de' } });
    expect([response.status, refused.status]).to.deep.equal([200, 429]);
    expect(await refused.text())
      .to.include('<general>Zu viele Anfragen; bitte gleich noch einmal versuchen.</general>');
  });

  it('when RATE_LIMIT_PER_MINUTE is not set, then answers carry no rate-limit headers', async () => {
    const response = await rawRequest(await sharedService(), 'GET', '/sighting/-1');
    expect(headersOf(response)).to.deep.equal({ status: 200, policy: null, limit: undefined, retryAfter: false });
  });
});
