// Drives every OAuth 2.0 grant the sighting realm offers, headless over HTTP, and checks the tokens the API will rely
// on.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { authServer } from '../support/auth-server.ts';
import type { AuthServer } from '../support/auth-server.ts';
import { copyOfSightingRealm } from '../support/keycloak-admin.ts';

// Nothing listens here: the flows stop at the redirect, which is all a headless client needs.
const REDIRECT_URI = 'http://127.0.0.1:8765/callback';
const SERVICE_SECRET = process.env['SIGHTING_SERVICE_SECRET'] ?? 'sighting-service-secret';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
}

interface AccessClaims {
  iss?: string;
  aud?: string | string[];
  typ?: string;
  sub?: string;
  azp?: string;
  realm_access?: { roles?: string[] };
}

/** Remembers cookies by name; every request in these flows goes to one realm, so paths and domains can be ignored. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq > 0) this.#cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

function decodeHtml(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? decodeHtml(match[1] ?? match[2] ?? '') : undefined;
}

/** Fills the first POST form of a login page: hidden fields kept, the password field and the one text field filled. */
function loginForm(html: string, pageUrl: string, username: string,
  password: string): { action: string; body: URLSearchParams } {
  const form = /<form\b[^>]*>[\s\S]*?<\/form>/gi;
  for (const [markup] of html.matchAll(form)) {
    const openTag = /^<form\b[^>]*>/i.exec(markup)?.[0] ?? '';
    const action = attribute(openTag, 'action');
    if (attribute(openTag, 'method')?.toLowerCase() !== 'post' || action === undefined) continue;
    const body = new URLSearchParams();
    for (const [input] of markup.matchAll(/<input\b[^>]*>/gi)) {
      const name = attribute(input, 'name');
      const type = (attribute(input, 'type') ?? 'text').toLowerCase();
      if (!name) continue;
      if (type === 'password') body.set(name, password);
      else if (type === 'text' || type === 'email') body.set(name, username);
      else if (type === 'hidden') body.set(name, attribute(input, 'value') ?? '');
    }
    return { action: new URL(action, pageUrl).href, body };
  }
  throw new Error(`no login form found at ${pageUrl}:\n${html.slice(0, 500)}`);
}

/**
 * Logs in through the authorization endpoint like a browser would, forwarding cookies by hand,
 * and returns the URL the provider finally redirects to at REDIRECT_URI.
 */
async function authorize(discovery: Discovery, params: Record<string, string>, username: string,
  password: string): Promise<URL> {
  const jar = new CookieJar();
  const authUrl = new URL(discovery.authorization_endpoint);
  for (const [key, value] of Object.entries({ redirect_uri: REDIRECT_URI, ...params }))
    authUrl.searchParams.set(key, value);

  const page = await fetch(authUrl, { redirect: 'manual' });
  jar.store(page);
  expect(page.status, 'login page').to.equal(200);
  const { action, body } = loginForm(await page.text(), authUrl.href, username, password);

  let response = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: jar.header() },
    body,
  });
  let current = action;
  for (let hops = 0; hops < 10; hops += 1) {
    jar.store(response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`expected a redirect from ${current}, ` +
        `got ${response.status}:\n${(await response.text()).slice(0, 500)}`);
    }
    const next = new URL(location, current);
    if (next.href.startsWith(REDIRECT_URI)) return next;
    current = next.href;
    response = await fetch(next, { redirect: 'manual', headers: { Cookie: jar.header() } });
  }
  throw new Error('too many redirects before reaching the redirect URI');
}

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function postToken(discovery: Discovery, form: Record<string, string>,
  headers: Record<string, string> = {}): Promise<Response> {
  return fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}

/** Checks a successful token response as RFC 6749 §5.1 shows it and returns its body. */
async function expectTokenResponse(response: Response, withRefreshToken: boolean): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(body)).to.equal(200);
  // §5.1's example says application/json;charset=UTF-8; Keycloak 26 sends bare application/json, which
  // RFC 8259 makes UTF-8 anyway, so the media type is required and a charset, if any, must be UTF-8.
  const [mediaType, ...parameters] =
    (response.headers.get('content-type') ?? '').replace(/\s+/g, '').toLowerCase().split(';');
  expect(mediaType).to.equal('application/json');
  for (const parameter of parameters.filter((p) => p.startsWith('charset=')))
    expect(parameter).to.equal('charset=utf-8');
  expect(response.headers.get('cache-control')).to.equal('no-store');
  expect(response.headers.get('pragma')).to.equal('no-cache');
  expectTokenFields(body, withRefreshToken);
  return body;
}

function expectTokenFields(body: Record<string, unknown>, withRefreshToken: boolean): void {
  expect(body['access_token']).to.be.a('string').and.not.equal('');
  expect(String(body['token_type']).toLowerCase()).to.equal('bearer');
  // JSON carries a number; the implicit flow's fragment can only carry its decimal text.
  const expiresIn = typeof body['expires_in'] === 'string' && /^\d+$/.test(body['expires_in'])
    ? Number(body['expires_in']) : body['expires_in'];
  expect(expiresIn).to.be.a('number').above(0);
  if (withRefreshToken) expect(body['refresh_token']).to.be.a('string').and.not.equal('');
  else expect(body).not.to.have.property('refresh_token');
}

function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

function claimsOf(accessToken: unknown): AccessClaims {
  const payload = String(accessToken).split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as AccessClaims;
}

/** Asserts the claims the API checks; `roles` must all be present and `absentRoles` must not. */
function expectApiClaims(token: unknown, issuer: string, client: string, roles: string[],
  absentRoles: string[] = []): void {
  const claims = claimsOf(token);
  expect(claims.iss).to.equal(issuer);
  expect([claims.aud ?? []].flat()).to.include('sighting-api');
  expect(claims.typ).to.equal('Bearer');
  expect(claims.sub).to.be.a('string').and.not.equal('');
  expect(claims.azp).to.equal(client);
  const granted = claims.realm_access?.roles ?? [];
  expect(granted).to.include.members(roles);
  for (const role of absentRoles) expect(granted).not.to.include(role);
}

describe('OAuth 2.0 grants of the sighting realm', function () {
  let server: AuthServer;
  let discovery: Discovery;

  before(async function () {
    server = await authServer();
    const response = await fetch(`${server.issuer}/.well-known/openid-configuration`);
    expect(response.status, 'discovery document').to.equal(200);
    discovery = (await response.json()) as Discovery;
    expect(discovery.issuer).to.equal(server.issuer);
  });

  after(async function () {
    await server?.close();
  });

  async function passwordGrant(username: string, password: string): Promise<Response> {
    return postToken(discovery, { grant_type: 'password', client_id: 'sighting-cli', username, password });
  }

  describe('authorization code with PKCE (sighting-web)', function () {
    async function codeFor(challenge: string): Promise<string> {
      const state = randomBytes(16).toString('base64url');
      const redirect = await authorize(
        discovery,
        { client_id: 'sighting-web', response_type: 'code', scope: 'openid', state, code_challenge: challenge,
          code_challenge_method: 'S256' },
        'bob',
        'bob',
      );
      expect(redirect.searchParams.get('state')).to.equal(state);
      const code = redirect.searchParams.get('code');
      expect(code, redirect.href).to.be.a('string').and.not.equal('');
      return code ?? '';
    }

    it('when bob logs in and the code is exchanged with its verifier, ' +
      'then the token carries his roles', async function () {
      const { verifier, challenge } = pkcePair();
      const code = await codeFor(challenge);
      const response = await postToken(discovery, {
        grant_type: 'authorization_code',
        client_id: 'sighting-web',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      });
      const body = await expectTokenResponse(response, true);
      expectApiClaims(body['access_token'], server.issuer, 'sighting-web', ['reader', 'writer'], ['admin']);
    });

    it('when the code is exchanged with a wrong verifier, ' +
      'then the token endpoint answers 400 invalid_grant', async function () {
      const { challenge } = pkcePair();
      const code = await codeFor(challenge);
      const response = await postToken(discovery, {
        grant_type: 'authorization_code',
        client_id: 'sighting-web',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: pkcePair().verifier,
      });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.include({ error: 'invalid_grant' });
    });
  });

  describe('implicit (sighting-legacy)', function () {
    it('when bob logs in with response_type=token, ' +
      'then the access token arrives in the redirect fragment', async function () {
      // Only Keycloak offers the deprecated implicit flow; the embedded provider deliberately does not.
      if (server.kind === 'embedded') this.skip();
      const state = randomBytes(16).toString('base64url');
      const redirect = await authorize(discovery,
        { client_id: 'sighting-legacy', response_type: 'token', scope: 'openid', state }, 'bob', 'bob');
      expect(redirect.search, 'nothing in the query').to.equal('');
      const fragment = Object.fromEntries(new URLSearchParams(redirect.hash.slice(1)));
      expect(fragment['state']).to.equal(state);
      expectTokenFields(fragment, false);
      expectApiClaims(fragment['access_token'], server.issuer, 'sighting-legacy', ['reader', 'writer'], ['admin']);
    });
  });

  describe('resource owner password (sighting-cli)', function () {
    it('when alice gives her password, then she gets reader and writer but not admin', async function () {
      const body = await expectTokenResponse(await passwordGrant('alice', 'alice'), true);
      expectApiClaims(body['access_token'], server.issuer, 'sighting-cli', ['reader', 'writer'], ['admin']);
    });

    it('when alice signs in from four clients at once, then each gets a token (none refused as a brute force)',
      async function () {
        const answers = await Promise.all([1, 2, 3, 4].map(() => passwordGrant('alice', 'alice')));
        for (const answer of answers) await expectTokenResponse(answer, true);
      });

    it('when viewer gives his password, then he gets reader only', async function () {
      const body = await expectTokenResponse(await passwordGrant('viewer', 'viewer'), true);
      expectApiClaims(body['access_token'], server.issuer, 'sighting-cli', ['reader'], ['writer', 'admin']);
    });

    it('when admin gives the password, then the token carries admin', async function () {
      const body = await expectTokenResponse(await passwordGrant('admin', 'admin'), true);
      expectApiClaims(body['access_token'], server.issuer, 'sighting-cli', ['reader', 'writer', 'admin']);
    });

    it('when the password is wrong, then the token endpoint answers 401 invalid_grant', async function () {
      // A failure counts against alice in Keycloak's brute-force detection, which every test signing her in shares
      // (two within a second lock her for a minute): on Keycloak it is made in a realm copy of its own.
      const keycloakUrl = server.kind === 'keycloak' ? process.env['KEYCLOAK_URL'] : undefined;
      const copy = keycloakUrl ? await copyOfSightingRealm(keycloakUrl.replace(/\/+$/, '')) : undefined;
      try {
        const response = await (copy ?? { passwordGrant }).passwordGrant('alice', 'not-alice');
        expect(response.status).to.equal(401);
        expect(await response.json()).to.include({ error: 'invalid_grant' });
      } finally {
        await copy?.remove();
      }
    });
  });

  describe('client credentials (sighting-service)', function () {
    it('when the service authenticates with HTTP Basic, ' +
      'then its service account gets reader and writer', async function () {
      // RFC 6749 §2.3.1: form-urlencode id and secret before joining them for Basic.
      const basic = Buffer.from(`${formEncode('sighting-service')}:${formEncode(SERVICE_SECRET)}`).toString('base64');
      const response =
        await postToken(discovery, { grant_type: 'client_credentials' }, { Authorization: `Basic ${basic}` });
      const body = await expectTokenResponse(response, false);
      expectApiClaims(body['access_token'], server.issuer, 'sighting-service', ['reader', 'writer'], ['admin']);
    });
  });

  describe('refresh (sighting-cli)', function () {
    it("when alice's refresh token is redeemed, then a new access token with her roles comes back", async function () {
      const first = await expectTokenResponse(await passwordGrant('alice', 'alice'), true);
      const response = await postToken(discovery, {
        grant_type: 'refresh_token',
        client_id: 'sighting-cli',
        refresh_token: String(first['refresh_token']),
      });
      const body = await expectTokenResponse(response, true);
      expect(body['access_token']).not.to.equal(first['access_token']);
      expectApiClaims(body['access_token'], server.issuer, 'sighting-cli', ['reader', 'writer'], ['admin']);
    });
  });
});
