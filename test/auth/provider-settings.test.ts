// Settings reach the embedded provider through src/config/config.ts: TOKEN_AUDIENCE, NODE_ENV, SIGHTING_SERVICE_SECRET.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';

const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));

describe('settings of the embedded provider', function () {
  // Keycloak's audience comes from its realm's mappers, not from this service's settings.
  before(function () { if (process.env.KEYCLOAK_URL) this.skip(); });

  describe('with TOKEN_AUDIENCE=registry and SIGHTING_SERVICE_SECRET=s3cret', () => {
    let service: TestService;
    before(async () => {
      service = await startService({ TOKEN_AUDIENCE: 'registry', SIGHTING_SERVICE_SECRET: 's3cret' });
    });
    after(async () => { await service?.stop(); });

    async function token(body: Record<string, string>,
      authorization?: string): Promise<{ status: number; token?: string }> {
      const response = await fetch(`${service.realm}/protocol/openid-connect/token`, {
        method: 'POST', body: new URLSearchParams(body), headers: authorization ? { Authorization: authorization } : {},
      });
      return { status: response.status, token: (await response.json() as { access_token?: string }).access_token };
    }

    it('when alice gets a token, then its audience is registry and the API accepts it', async () => {
      const { token: accessToken } =
        await token({ grant_type: 'password', client_id: 'sighting-cli', username: 'alice', password: 'alice' });
      expect(claimsOf(accessToken!).aud).to.equal('registry');
      const response = await rawRequest(service, 'GET', '/sighting/-1',
        { user: null, headers: { Authorization: `Bearer ${accessToken}` } });
      expect(response.status).to.equal(200);
    });

    it('when the service client authenticates, then the configured secret is the one that works', async () => {
      const basic = (secret: string) => `Basic ${Buffer.from(`sighting-service:${secret}`).toString('base64')}`;
      expect((await token({ grant_type: 'client_credentials' }, basic('s3cret'))).status).to.equal(200);
      expect((await token({ grant_type: 'client_credentials' }, basic('sighting-service-secret'))).status)
        .to.equal(401);
    });
  });

  it('when NODE_ENV=production is configured, ' +
    'then the service refuses to start with the embedded provider', async () => {
    let error: unknown;
    await startService({ NODE_ENV: 'production' })
      .then((service) => service.stop(), (caught: unknown) => { error = caught; });
    expect((error as Error)?.message).to.match(/NODE_ENV=production/);
  });
});
