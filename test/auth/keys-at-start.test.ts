// A started service already holds the realm's keys: no token waits for (or fails with) a fetch of them.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';

describe('realm keys at start', function () {
  let service: TestService;
  // Only the embedded provider's certs endpoint is served by the service itself, where the test can see it asked.
  before(async function () {
    if (process.env.KEYCLOAK_URL) return this.skip();
    service = await startService();
  });
  after(async () => { await service?.stop(); });

  it('when the first requests with valid tokens arrive, ' +
    'then they are all 200 and none had to fetch the keys', async () => {
    const fetches: string[] = [];
    service.web.server.prependListener('request', (req: { url?: string }) => {
      if (req.url?.endsWith('/protocol/openid-connect/certs')) fetches.push(req.url);
    });
    const token = await tokenFor(service.realm, 'alice');
    const statuses = await Promise.all(Array.from({ length: 10 }, async () =>
      (await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } })).status));
    expect({ statuses, fetches }).to.deep.equal({ statuses: Array(10).fill(200), fetches: [] });
  });
});
