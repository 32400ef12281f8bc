// Start-up rules of the embedded provider: production refusal, realm placeholders, the printed curl line, userinfo.
import { expect } from 'chai';
import { createDevProvider, passwordGrantCurl } from '../../src/dev-provider/index.ts';
import { resolvePlaceholders } from '../../src/dev-provider/realm.ts';
import { passwordGrant, REALM_FILE, startProvider } from './harness.ts';

describe('embedded provider: setup', () => {
  it('refuses to start with NODE_ENV=production', async () => {
    const attempt = createDevProvider({
      issuer: 'http://127.0.0.1:1/realms/sighting', realmFile: REALM_FILE, env: { NODE_ENV: 'production' },
    });
    let error: unknown;
    await attempt.catch((caught: unknown) => { error = caught; });
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/NODE_ENV=production/);
  });

  it('does not read process.env itself: without env it starts even when NODE_ENV=production is set there', async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const provider = await createDevProvider({ issuer: 'http://127.0.0.1:1/realms/sighting', realmFile: REALM_FILE });
      expect(provider.realm).to.equal('sighting');
    } finally {
      if (previous === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = previous;
    }
  });

  it('resolves Keycloak ${ENV:default} placeholders from the environment, else the default', () => {
    const text = '${SIGHTING_SERVICE_SECRET:sighting-service-secret}';
    expect(resolvePlaceholders(text, {})).to.equal('sighting-service-secret');
    expect(resolvePlaceholders(text, { SIGHTING_SERVICE_SECRET: 's3cret' })).to.equal('s3cret');
    expect(resolvePlaceholders('${env.X:y}-${NOPE}', {})).to.equal('y-${NOPE}');
  });

  it('builds the curl line for the password grant', () => {
    expect(passwordGrantCurl({ issuer: 'http://localhost:8080/realms/sighting' })).to.equal(
      'curl -s -d grant_type=password -d client_id=sighting-cli -d username=alice -d password=alice '
      + 'http://localhost:8080/realms/sighting/protocol/openid-connect/token',
    );
    expect(passwordGrantCurl({ issuer: 'http://h/realms/sighting', password: "it's & x" }))
      .to.contain(`--data-urlencode 'password=it'\\''s & x'`);
  });

  it('answers userinfo for its own access tokens and refuses others', async () => {
    const harness = await startProvider();
    try {
      const { body } = await passwordGrant(harness, 'viewer', 'viewer');
      const url = `${harness.issuer}/protocol/openid-connect/userinfo`;
      const ok = await fetch(url, { headers: { Authorization: `Bearer ${String(body.access_token)}` } });
      expect(ok.status).to.equal(200);
      expect(await ok.json()).to.include({ preferred_username: 'viewer' });
      const refused = await fetch(url, { headers: { Authorization: 'Bearer nonsense' } });
      expect(refused.status).to.equal(401);
      expect(refused.headers.get('www-authenticate')).to.match(/^Bearer /);
    } finally {
      await harness.close();
    }
  });
});
