// Resource owner password grant (RFC 6749 §4.3) and refresh (§6) against the embedded provider.
import { expect } from 'chai';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { claimsOf, passwordGrant, postToken, startProvider } from './harness.ts';
import type { Harness } from './harness.ts';

describe('embedded provider: password grant', () => {
  let harness: Harness;
  before(async () => { harness = await startProvider(); });
  after(async () => { await harness.close(); });

  it('answers alice with an RFC 6749 §5.1 token response', async () => {
    const { status, headers, body } = await passwordGrant(harness, 'alice', 'alice');
    expect(status).to.equal(200);
    expect(headers.get('content-type')).to.equal('application/json;charset=UTF-8');
    expect(headers.get('cache-control')).to.equal('no-store');
    expect(headers.get('pragma')).to.equal('no-cache');
    expect(body.token_type).to.equal('Bearer');
    expect(body.expires_in).to.be.a('number').above(0);
    expect(body.access_token).to.be.a('string');
    expect(body.refresh_token).to.be.a('string');
  });

  it('signs a Keycloak-shaped access token with RS256, verifiable from the certs endpoint', async () => {
    const { body } = await passwordGrant(harness, 'alice', 'alice');
    const jwks = createRemoteJWKSet(new URL(`${harness.issuer}/protocol/openid-connect/certs`));
    const { payload, protectedHeader } = await jwtVerify(String(body.access_token), jwks, {
      issuer: harness.issuer, audience: 'sighting-api', algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).to.equal('RS256');
    expect(payload).to.include({ typ: 'Bearer', azp: 'sighting-cli', preferred_username: 'alice' });
    expect(payload.sub).to.match(/^[0-9a-f-]{36}$/);
    expect(payload.exp).to.be.a('number');
    expect(payload.iat).to.be.a('number');
    expect(payload.scope).to.be.a('string');
    expect((payload.realm_access as { roles: string[] }).roles).to.have.members(['reader', 'writer']);
  });

  it('issues tokens keycloak-connect accepts as a bearer-only resource server', async () => {
    const { body } = await passwordGrant(harness, 'alice', 'alice');
    const Keycloak = (await import('keycloak-connect')).default;
    const keycloak = new Keycloak({}, {
      realm: 'sighting', 'auth-server-url': harness.base, resource: 'sighting-api', 'bearer-only': true,
      'verify-token-audience': true,
    } as never);
    const grant = await keycloak.grantManager.createGrant({ access_token: String(body.access_token) } as never);
    expect(grant.access_token).to.have.property('content').that.has.property('preferred_username', 'alice');
  });

  it('keeps the subject stable for a user', async () => {
    const first = await passwordGrant(harness, 'alice', 'alice');
    const second = await passwordGrant(harness, 'alice', 'alice');
    expect(claimsOf(first.body.access_token).sub).to.equal(claimsOf(second.body.access_token).sub);
  });

  it('refuses a wrong password and an unknown user with invalid_grant', async () => {
    for (const [username, password] of [['alice', 'wrong'], ['nobody', 'nobody']] as const) {
      const { status, body } = await passwordGrant(harness, username, password);
      expect(status).to.be.oneOf([400, 401]);
      expect(body.error).to.equal('invalid_grant');
    }
  });

  it('gives viewer only the reader role and admin all three', async () => {
    const viewer = claimsOf((await passwordGrant(harness, 'viewer', 'viewer')).body.access_token);
    expect((viewer.realm_access as { roles: string[] }).roles).to.deep.equal(['reader']);
    const admin = claimsOf((await passwordGrant(harness, 'admin', 'admin')).body.access_token);
    expect((admin.realm_access as { roles: string[] }).roles).to.have.members(['reader', 'writer', 'admin']);
  });

  it('refuses the password grant to a client not enabled for it', async () => {
    const { status, body } = await postToken(harness.tokenUrl, {
      grant_type: 'password', client_id: 'sighting-web', username: 'alice', password: 'alice',
    });
    expect(status).to.equal(400);
    expect(body.error).to.be.oneOf(['unauthorized_client', 'invalid_request']);
  });

  it('refreshes into a new access token for the same user and audience', async () => {
    const first = await passwordGrant(harness, 'bob', 'bob');
    const { status, body } = await postToken(harness.tokenUrl, {
      grant_type: 'refresh_token', client_id: 'sighting-cli', refresh_token: String(first.body.refresh_token),
    });
    expect(status).to.equal(200);
    expect(body.refresh_token).to.be.a('string');
    const claims = claimsOf(body.access_token);
    expect(claims).to.include({ preferred_username: 'bob', aud: 'sighting-api', typ: 'Bearer', azp: 'sighting-cli' });
    expect(claims.sub).to.equal(claimsOf(first.body.access_token).sub);
  });

  it('refuses a bogus refresh token with invalid_grant', async () => {
    const { status, body } = await postToken(harness.tokenUrl, {
      grant_type: 'refresh_token', client_id: 'sighting-cli', refresh_token: 'not-a-refresh-token',
    });
    expect(status).to.equal(400);
    expect(body.error).to.equal('invalid_grant');
  });
});
