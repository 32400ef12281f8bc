// CORS_ORIGINS: the configured origins' pages may call the API from the browser; other origins get no CORS headers.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';

describe('cross-origin calls (CORS_ORIGINS)', () => {
  const allowed = 'https://app.example.org';
  let service: TestService;
  before(async () => { service = await startService({ CORS_ORIGINS: `${allowed}, http://localhost:5173` }); });
  after(async () => { await service?.stop(); });

  it('when a page of an allowed origin calls with a token, then the answer allows that origin and exposes ETag', async () => {
    const response = await fetch(`${service.api}/sighting/-1`, { headers: { Origin: allowed, Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` } });
    expect(response.status).to.equal(200);
    expect(response.headers.get('access-control-allow-origin')).to.equal(allowed);
    expect(response.headers.get('access-control-expose-headers')).to.include('ETag');
    expect(response.headers.get('vary')).to.include('Origin');
  });

  it('when the browser sends a preflight without a token, then 204 naming the methods and headers the API takes', async () => {
    const response = await fetch(`${service.api}/sighting/-1`, {
      method: 'OPTIONS', headers: { Origin: allowed, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'authorization, content-type, if-match' },
    });
    expect(response.status).to.equal(204);
    expect(response.headers.get('access-control-allow-methods')).to.include('PATCH');
    expect(response.headers.get('access-control-allow-headers')).to.include('If-Match');
    expect(response.headers.get('access-control-max-age')).to.equal('600');
  });

  it('when another origin calls, then no CORS header is given', async () => {
    const response = await fetch(`${service.api}/sighting/-1`, { headers: { Origin: 'https://evil.example', Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` } });
    expect(response.status).to.equal(200);
    expect(response.headers.get('access-control-allow-origin')).to.equal(null);
    const preflight = await fetch(`${service.api}/sighting/-1`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'DELETE' } });
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(null);
  });
});
