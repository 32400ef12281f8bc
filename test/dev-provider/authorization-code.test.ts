// Authorization code + PKCE (RFC 6749 §4.1, RFC 7636) through the embedded login page, driven headlessly with fetch.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { claimsOf, postToken, startProvider } from './harness.ts';
import type { Harness } from './harness.ts';

const REDIRECT_URI = 'http://127.0.0.1:8765/callback';

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authUrl(harness: Harness, params: Record<string, string>): URL {
  const url = new URL(`${harness.issuer}/protocol/openid-connect/auth`);
  const all = { client_id: 'sighting-web', response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI,
    state: 's1', ...params };
  for (const [key, value] of Object.entries(all)) url.searchParams.set(key, value);
  return url;
}

// Cookies by name; every request goes to one host, so paths can be ignored.
function remember(jar: Map<string, string>, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

async function login(harness: Harness, url: URL, username: string,
  password: string): Promise<{ final?: URL; page: string }> {
  const jar = new Map<string, string>();
  const first = await fetch(url, { redirect: 'manual' });
  remember(jar, first);
  expect(first.status).to.equal(200);
  const html = await first.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  expect(action, html).to.be.a('string');
  let current = new URL(String(action).replace(/&#38;/g, '&'), url);
  let response = await fetch(current, {
    method: 'POST', redirect: 'manual', headers: { Cookie: cookieHeader(jar) },
    body: new URLSearchParams({ username, password }),
  });
  for (let hops = 0; hops < 10; hops += 1) {
    remember(jar, response);
    const location = response.headers.get('location');
    if (!location) return { page: await response.text() };
    current = new URL(location, current);
    if (current.href.startsWith(REDIRECT_URI)) return { final: current, page: '' };
    response = await fetch(current, { redirect: 'manual', headers: { Cookie: cookieHeader(jar) } });
  }
  throw new Error('too many redirects');
}

describe('embedded provider: authorization code with PKCE', () => {
  let harness: Harness;
  before(async () => { harness = await startProvider(); });
  after(async () => { await harness.close(); });

  it('when the authorization request names no scope, ' +
    'then it still ends with a code that buys an API token (as Keycloak)', async () => {
    const { verifier, challenge } = pkce();
    const url = authUrl(harness, { code_challenge: challenge, code_challenge_method: 'S256' });
    url.searchParams.delete('scope');
    const { final, page } = await login(harness, url, "alice", "alice");
    expect(final, page).to.not.equal(undefined);
    expect(final?.searchParams.get("error")).to.equal(null);
    const { status, body } = await postToken(harness.tokenUrl, {
      grant_type: 'authorization_code', client_id: 'sighting-web', code: String(final?.searchParams.get('code')),
      redirect_uri: REDIRECT_URI, code_verifier: verifier,
    });
    expect(status).to.equal(200);
    expect(claimsOf(body.access_token))
      .to.include({ aud: 'sighting-api', typ: 'Bearer', azp: 'sighting-web', preferred_username: 'alice' });
  });

  it('titles the login page with the realm\'s display name in the language asked for ' +
    '(the realm export\'s localizationTexts)', async () => {
    const { challenge } = pkce();
    const titles: string[] = [];
    for (const locale of ['en', 'de']) {
      const page = await fetch(authUrl(harness,
        { code_challenge: challenge, code_challenge_method: 'S256', ui_locales: locale }), { redirect: 'manual' });
      expect(page.status).to.equal(200);
      titles.push(/<title>([^<]*)<\/title>/.exec(await page.text())?.[1] ?? '');
    }
    expect(titles).to.deep.equal(['Sign in to Sighting registry', 'Beim Sichtungsregister anmelden']);
  });

  it('serves a login form at the authorization endpoint and redirects back with a code to exchange', async () => {
    const { verifier, challenge } = pkce();
    const { final } = await login(harness,
      authUrl(harness, { code_challenge: challenge, code_challenge_method: 'S256' }), 'bob', 'bob');
    expect(final?.searchParams.get('state')).to.equal('s1');
    const code = final?.searchParams.get('code');
    expect(code).to.be.a('string');
    const { status, headers, body } = await postToken(harness.tokenUrl, {
      grant_type: 'authorization_code', client_id: 'sighting-web', code: String(code), redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(status).to.equal(200);
    expect(headers.get('cache-control')).to.equal('no-store');
    expect(body).to.include({ token_type: 'Bearer' });
    expect(body.refresh_token).to.be.a('string');
    const claims = claimsOf(body.access_token);
    expect(claims).to.include({ iss: harness.issuer, aud: 'sighting-api', typ: 'Bearer', azp: 'sighting-web',
      preferred_username: 'bob' });
    expect((claims.realm_access as { roles: string[] }).roles).to.have.members(['reader', 'writer']);

    const refreshed = await postToken(harness.tokenUrl, {
      grant_type: 'refresh_token', client_id: 'sighting-web', refresh_token: String(body.refresh_token),
    });
    expect(refreshed.status).to.equal(200);
    expect(claimsOf(refreshed.body.access_token))
      .to.include({ aud: 'sighting-api', azp: 'sighting-web', sub: claims.sub });
  });

  it('refuses the code with a wrong verifier (invalid_grant)', async () => {
    const { challenge } = pkce();
    const { final } = await login(harness,
      authUrl(harness, { code_challenge: challenge, code_challenge_method: 'S256' }), 'alice', 'alice');
    const { status, body } = await postToken(harness.tokenUrl, {
      grant_type: 'authorization_code', client_id: 'sighting-web', code: String(final?.searchParams.get('code')),
      redirect_uri: REDIRECT_URI, code_verifier: pkce().verifier,
    });
    expect(status).to.equal(400);
    expect(body.error).to.equal('invalid_grant');
  });

  it('re-renders the form on a wrong password', async () => {
    const { final, page } = await login(harness,
      authUrl(harness, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }), 'alice', 'nope');
    expect(final).to.equal(undefined);
    expect(page).to.contain('Invalid username or password.');
  });

  it('requires PKCE from the public web client', async () => {
    const response = await fetch(authUrl(harness, {}), { redirect: 'manual' });
    const location = new URL(String(response.headers.get('location')));
    expect(location.href.startsWith(REDIRECT_URI)).to.equal(true);
    expect(location.searchParams.get('error')).to.equal('invalid_request');
  });

  it('refuses a redirect URI outside the realm patterns without redirecting to it', async () => {
    const response = await fetch(authUrl(harness, { redirect_uri: 'https://evil.example/cb', code_challenge: pkce().challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
    expect(response.status).to.equal(400);
    expect(response.headers.get('location')).to.equal(null);
  });
});
