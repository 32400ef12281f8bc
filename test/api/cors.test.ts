// CORS_ORIGINS: the configured origins' pages may call the API from the browser; other origins get no CORS headers.
import { expect } from 'chai';
import { sharedService, startService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { InvalidConfiguration, loadConfig } from '../../src/config/config.ts';

/** A header's comma-separated list, lower-cased (header names are case-insensitive). */
function listOf(response: Response, name: string): string[] {
  return (response.headers.get(name) ?? '').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
}

/** What a browser sends before a cross-origin PATCH with a token and a precondition: no token of its own. */
function preflight(service: TestService, origin: string, path = '/sighting/-1'): Promise<Response> {
  return fetch(`${service.api}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'PATCH',
      'Access-Control-Request-Headers': 'authorization, content-type, if-match' },
  });
}

const corsHeaders = ['access-control-allow-origin', 'access-control-expose-headers', 'access-control-allow-methods',
  'access-control-allow-headers', 'access-control-max-age'];

describe('cross-origin calls (CORS_ORIGINS)', () => {
  const allowed = 'https://app.example.org';
  const refused = 'https://evil.example';

  describe('when origins are configured', () => {
    let service: TestService;
    before(async () => { service = await startService({ CORS_ORIGINS: `${allowed}, http://localhost:5173`, RATE_LIMIT_PER_MINUTE: '1000' }); });
    after(async () => { await service?.stop(); });

    it('when a page of an allowed origin calls with a token, ' +
      'then the answer allows that origin and exposes the headers a client reads', async () => {
      const response = await rawRequest(service, 'GET', '/sighting/-1', { headers: { Origin: allowed } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('access-control-allow-origin')).to.equal(allowed);
      expect(listOf(response, 'vary')).to.include('origin');
      expect(listOf(response, 'access-control-expose-headers')).to.include.members(
        ['etag', 'location', 'link', 'ratelimit', 'ratelimit-policy', 'retry-after', 'x-total-count',
          'preference-applied']);
      // Exposed because the page reads them: they are sent.
      expect(response.headers.get('etag')).to.equal('"0"');
      expect(response.headers.get('ratelimit')).to.match(/^"per-caller";r=\d+;t=\d+$/);
    });

    it('when a page of an allowed origin calls without a token, ' +
      'then the 401 is readable by it, WWW-Authenticate included', async () => {
      const response = await rawRequest(service, 'GET', '/sighting/-1', { user: null, headers: { Origin: allowed } });
      expect(response.status).to.equal(401);
      expect(response.headers.get('access-control-allow-origin')).to.equal(allowed);
      expect(listOf(response, 'access-control-expose-headers')).to.include('www-authenticate');
    });

    it('when the browser sends a preflight without a token, ' +
      'then 204 naming the methods of that path and the headers the API takes', async () => {
      const response = await preflight(service, allowed);
      expect(response.status).to.equal(204);
      expect(response.headers.get('access-control-allow-origin')).to.equal(allowed);
      expect(listOf(response, 'vary')).to.include('origin');
      expect(listOf(response, 'access-control-allow-methods'))
        .to.have.members(['get', 'head', 'put', 'patch', 'delete', 'options']);
      // Another path, other methods: what the contract has there (a query by example is a POST only).
      expect(listOf(await preflight(service, allowed, '/sighting/qbe'), 'access-control-allow-methods'))
        .to.have.members(['post', 'options']);
      expect(listOf(response, 'access-control-allow-headers')).to.include.members(
        ['authorization', 'content-type', 'if-match', 'if-none-match', 'prefer', 'idempotency-key',
          'accept-language', 'last-event-id']);
      expect(response.headers.get('access-control-max-age')).to.equal('600');
      expect(await response.text()).to.equal('');
    });

    it('when a preflight names a path that is not the contract\'s, ' +
      'then it is not answered with CORS approval', async () => {
      const response = await preflight(service, allowed, '/nowhere');
      expect(response.status).to.not.equal(204);
      expect(response.headers.get('access-control-allow-methods')).to.equal(null);
    });

    it('when another origin calls, then no CORS header is given and its preflight is not answered', async () => {
      const response = await rawRequest(service, 'GET', '/sighting/-1', { headers: { Origin: refused } });
      expect(response.status).to.equal(200);
      for (const name of corsHeaders) expect(response.headers.get(name), name).to.equal(null);
      // Still Vary: Origin, so a cache never hands this answer to an allowed origin's page, nor the other way round.
      expect(listOf(response, 'vary')).to.include('origin');
      const refusedPreflight = await preflight(service, refused);
      expect(refusedPreflight.status).to.not.equal(204);
      for (const name of corsHeaders) expect(refusedPreflight.headers.get(name), name).to.equal(null);
    });

    it('when an origin differs from an allowed one only in scheme or port, ' +
      'then it is refused too (exact match)', async () => {
      for (const origin of ['http://app.example.org', 'https://app.example.org:8443', 'https://app.example.org.evil.example']) {
        const response = await rawRequest(service, 'GET', '/sighting/-1', { headers: { Origin: origin } });
        expect(response.headers.get('access-control-allow-origin'), origin).to.equal(null);
      }
    });
  });

  it('when CORS_ORIGINS holds a wildcard, a path or anything but exact origins, ' +
    'then the configuration is refused naming it', () => {
    for (const origins of ['*', 'null', 'https://app.example.org/', 'https://app.example.org/page', 'https://App.example.org', 'https://app.example.org:443']) {
      expect(() => loadConfig({ CORS_ORIGINS: origins }), origins).to.throw(InvalidConfiguration, 'CORS_ORIGINS: ');
    }
    expect(loadConfig({ CORS_ORIGINS: ` ${allowed} ,http://localhost:5173,` }).CORS_ORIGINS).to.deep.equal([allowed, 'http://localhost:5173']);
    expect(loadConfig({}).CORS_ORIGINS).to.deep.equal([]);
  });

  describe('when CORS_ORIGINS is unset (the default)', () => {
    let service: TestService;
    before(async () => { service = await sharedService(); });

    it('when any origin calls, then no CORS header is given and a preflight is not answered', async () => {
      const response = await rawRequest(service, 'GET', '/sighting/-1', { headers: { Origin: allowed } });
      expect(response.status).to.equal(200);
      for (const name of corsHeaders) expect(response.headers.get(name), name).to.equal(null);
      const unanswered = await preflight(service, allowed);
      expect(unanswered.status).to.not.equal(204);
      for (const name of corsHeaders) expect(unanswered.headers.get(name), name).to.equal(null);
    });
  });
});
