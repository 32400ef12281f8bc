// Client credentials grant (RFC 6749 §4.4) for sighting-service, with client_secret_basic and client_secret_post
// (§2.3.1).
import { expect } from 'chai';
import { claimsOf, postToken, startProvider } from './harness.ts';
import type { Harness } from './harness.ts';

const SECRET = process.env.SIGHTING_SERVICE_SECRET ?? 'sighting-service-secret';

// §2.3.1: id and secret are form-urlencoded before being joined for HTTP Basic.
function basic(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

describe('embedded provider: client credentials', () => {
  let harness: Harness;
  before(async () => { harness = await startProvider(); });
  after(async () => { await harness.close(); });

  it('gives sighting-service a token for its service account with HTTP Basic', async () => {
    const { status, headers, body } = await postToken(harness.tokenUrl, { grant_type: 'client_credentials' }, {
      Authorization: basic('sighting-service', SECRET),
    });
    expect(status).to.equal(200);
    expect(headers.get('pragma')).to.equal('no-cache');
    expect(body).to.include({ token_type: 'Bearer' });
    expect(body).not.to.have.property('refresh_token');
    const claims = claimsOf(body.access_token);
    expect(claims).to.include({
      iss: harness.issuer, aud: 'sighting-api', typ: 'Bearer', azp: 'sighting-service',
      preferred_username: 'service-account-sighting-service',
    });
    expect((claims.realm_access as { roles: string[] }).roles).to.have.members(['reader', 'writer']);
  });

  it('accepts the secret in the form body too', async () => {
    const { status, body } = await postToken(harness.tokenUrl, {
      grant_type: 'client_credentials', client_id: 'sighting-service', client_secret: SECRET,
    });
    expect(status).to.equal(200);
    expect(claimsOf(body.access_token).azp).to.equal('sighting-service');
  });

  it('refuses a wrong secret with 401 invalid_client', async () => {
    const { status, body } = await postToken(harness.tokenUrl, { grant_type: 'client_credentials' }, {
      Authorization: basic('sighting-service', 'wrong-secret'),
    });
    expect(status).to.equal(401);
    expect(body.error).to.equal('invalid_client');
  });

  it('refuses client credentials to a public client', async () => {
    const { status, body } =
      await postToken(harness.tokenUrl, { grant_type: 'client_credentials', client_id: 'sighting-cli' });
    expect(status).to.be.oneOf([400, 401]);
    expect(body.error).to.be.oneOf(['unauthorized_client', 'invalid_client']);
  });
});
