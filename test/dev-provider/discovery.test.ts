// Discovery and key publication of the embedded provider follow Keycloak's realm URL layout.
import { expect } from 'chai';
import { startProvider } from './harness.ts';
import type { Harness } from './harness.ts';

describe('embedded provider: discovery', () => {
  let harness: Harness;
  before(async () => { harness = await startProvider(); });
  after(async () => { await harness.close(); });

  it('advertises Keycloak-shaped absolute endpoints under the issuer', async () => {
    const response = await fetch(`${harness.issuer}/.well-known/openid-configuration`);
    expect(response.status).to.equal(200);
    const doc = await response.json() as Record<string, unknown>;
    const oidc = `${harness.base}/realms/sighting/protocol/openid-connect`;
    expect(doc.issuer).to.equal(`${harness.base}/realms/sighting`);
    expect(doc.authorization_endpoint).to.equal(`${oidc}/auth`);
    expect(doc.token_endpoint).to.equal(`${oidc}/token`);
    expect(doc.jwks_uri).to.equal(`${oidc}/certs`);
    expect(doc.userinfo_endpoint).to.equal(`${oidc}/userinfo`);
    expect(doc.end_session_endpoint).to.equal(`${oidc}/logout`);
    expect(doc.grant_types_supported)
      .to.include.members(['authorization_code', 'refresh_token', 'client_credentials', 'password']);
    expect(doc.grant_types_supported).not.to.include('implicit');
    expect(doc.code_challenge_methods_supported).to.deep.equal(['S256']);
    expect(doc.token_endpoint_auth_methods_supported)
      .to.include.members(['client_secret_basic', 'client_secret_post', 'none']);
  });

  it('advertises the proxy-facing URLs when behind a TLS-terminating proxy', async () => {
    const response = await fetch(`${harness.issuer}/.well-known/openid-configuration`, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'auth.example.test' },
    });
    const doc = await response.json() as Record<string, unknown>;
    expect(doc.token_endpoint).to.equal('https://auth.example.test/realms/sighting/protocol/openid-connect/token');
  });

  it('publishes one RS256 signing key with a kid at the certs endpoint', async () => {
    const response = await fetch(`${harness.issuer}/protocol/openid-connect/certs`);
    expect(response.status).to.equal(200);
    const { keys } = await response.json() as { keys: Array<Record<string, unknown>> };
    expect(keys).to.have.length(1);
    expect(keys[0]).to.include({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[0]).to.have.property('kid').that.is.a('string');
    expect(keys[0]).not.to.have.property('d');
  });
});
