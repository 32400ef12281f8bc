// The realm's login page in a real Chromium: authorization code + PKCE S256 for sighting-web, embedded provider or
// Keycloak.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiClient } from '../support/api-client.ts';
import {
  STEP_TIMEOUT_MS, closeBrowser, iconStatus, launchBrowser, screenshotPath, watchContext,
} from '../support/browser.ts';
import type { PageWatch } from '../support/browser.ts';
import { sharedService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import { listenOnLoopback } from '../support/loopback-server.ts';
import { copyOfSightingRealm } from '../support/keycloak-admin.ts';

interface Discovery { issuer: string; authorization_endpoint: string; token_endpoint: string }

/** A stand-in for the web app: answers /callback with a small page and remembers every URL it was sent to. */
interface Callback { redirectUri: string; origin: string; hits: URL[]; close(): Promise<void> }

async function startCallbackServer(): Promise<Callback> {
  const hits: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.push(url);
    if (url.pathname !== '/callback') { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'Content-Type': 'text/html;charset=utf-8' })
      .end('<!DOCTYPE html><title>Sighting web app</title><link rel="icon" href="data:,"><p>Signed in.</p>');
  });
  const origin = await listenOnLoopback(server);
  return {
    redirectUri: `${origin}/callback`,
    origin,
    hits,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizationUrl(discovery: Discovery, redirectUri: string, state: string, challenge: string): string {
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: 'sighting-web', response_type: 'code', scope: 'openid', redirect_uri: redirectUri,
    state, code_challenge: challenge, code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

// Labels and button texts of both login pages: ours says "Username"/"Sign in", Keycloak's "Username or email"/"Sign
// In".
async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel(/username/i).fill(username);
  await page.getByLabel(/^\s*password\s*$/i).fill(password);
  await page.getByRole('button', { name: /^\s*sign in\s*$/i }).click();
}

async function discoveryOf(issuer: string): Promise<Discovery> {
  const answer = await fetch(`${issuer}/.well-known/openid-configuration`);
  expect(answer.status).to.equal(200);
  const discovery = await answer.json() as Discovery;
  expect(discovery.issuer).to.equal(issuer);
  return discovery;
}

describe('login page in a browser (authorization code + PKCE, client sighting-web)', () => {
  const provider = process.env.KEYCLOAK_URL ? 'keycloak' : 'embedded';
  let browser: Browser;
  let service: TestService;
  let discovery: Discovery;
  let callback: Callback;
  let context: BrowserContext;
  let watch: PageWatch;

  before(async function () {
    browser = await launchBrowser(this);
    service = await sharedService();
    discovery = await discoveryOf(service.realm);
    callback = await startCallbackServer();
  });
  after(async () => {
    await closeBrowser(browser);
    await callback?.close();
  });

  // A fresh context per test: no session cookie of the realm carries over.
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    watch = await watchContext(context, [service.url, new URL(service.realm).origin, callback.origin]);
    callback.hits.length = 0;
  });
  afterEach(async () => { await context.close(); });

  it('when alice signs in with her password, ' +
    'then the browser lands on the callback with a code and the same state, and its token reads the API', async () => {
    const { verifier, challenge } = pkce();
    const state = randomBytes(16).toString('base64url');
    const page = await context.newPage();

    const response = await page.goto(authorizationUrl(discovery, callback.redirectUri, state, challenge));
    expect(response?.status()).to.equal(200);
    expect(new URL(page.url()).origin).to.equal(new URL(service.realm).origin);
    expect(await page.getByLabel(/username/i).isVisible()).to.equal(true);
    expect((await iconStatus(page)).status).to.equal(200);
    await page.screenshot({ path: screenshotPath(`login-${provider}`) });

    await signIn(page, 'alice', 'alice');
    await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
    expect(await page.getByText('Signed in.').isVisible()).to.equal(true);

    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).to.equal(state);
    expect(landed.searchParams.get('error')).to.equal(null);
    const code = landed.searchParams.get('code');
    expect(code).to.be.a('string').and.not.equal('');
    expect(callback.hits.map((hit) => hit.pathname)).to.deep.equal(['/callback']);

    const tokenAnswer = await fetch(discovery.token_endpoint, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'sighting-web', code: String(code),
        redirect_uri: callback.redirectUri, code_verifier: verifier }),
    });
    const tokens = await tokenAnswer.json() as { access_token?: string; token_type?: string };
    expect(tokenAnswer.status, JSON.stringify(tokens)).to.equal(200);
    expect(tokens.token_type).to.match(/^bearer$/i);
    const claims = JSON.parse(Buffer.from(String(tokens.access_token).split('.')[1] ?? '', 'base64url')
      .toString()) as Record<string, unknown>;
    expect(claims).to.include({ iss: service.realm, azp: 'sighting-web', preferred_username: 'alice' });

    const withBrowserToken = await (await apiClient(service,
      { user: null, headers: { Authorization: `Bearer ${tokens.access_token}` } }))
      .GET('/sighting/{id}', { params: { path: { id: -1 } } });
    expect(withBrowserToken.response.status).to.equal(200);
    // The same record as alice reads it with a password-grant token: the browser's token is as good as hers.
    const withPasswordToken =
      await (await apiClient(service, { user: 'alice' })).GET('/sighting/{id}', { params: { path: { id: -1 } } });
    expect(withBrowserToken.data).to.deep.equal(withPasswordToken.data);
    expect(withBrowserToken.data).to.include({ sightingId: -1 });

    // The code is single-use.
    const replay = await fetch(discovery.token_endpoint, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'sighting-web', code: String(code),
        redirect_uri: callback.redirectUri, code_verifier: verifier }),
    });
    expect(replay.status).to.equal(400);
    expect(await replay.json()).to.include({ error: 'invalid_grant' });

    expect(watch.problems).to.deep.equal([]);
  });

  it('when the password is wrong, ' +
    'then the login page says so and stays on the form, and the app is never called back', async () => {
    // A wrong password counts against alice in Keycloak's brute-force detection, which every test signing her in
    // shares (two within a second lock her for a minute): on Keycloak it is typed in a realm copy of its own.
    const keycloakUrl = process.env.KEYCLOAK_URL?.replace(/\/+$/, '');
    const copy = keycloakUrl ? await copyOfSightingRealm(keycloakUrl) : undefined;
    try {
      const { challenge } = pkce();
      const page = await context.newPage();
      const realm = copy ? await discoveryOf(copy.issuer) : discovery;
      await page.goto(authorizationUrl(realm, callback.redirectUri, 'wrong-password', challenge));

      await signIn(page, 'alice', 'not-alices-password');
      await page.getByText('Invalid username or password.').waitFor();

      expect(new URL(page.url()).origin).to.equal(new URL(service.realm).origin);
      expect(await page.getByLabel(/^\s*password\s*$/i).isVisible()).to.equal(true);
      expect(await page.getByLabel(/^\s*password\s*$/i).inputValue()).to.equal('');
      // Assistive technology is told which field failed.
      expect(await page.getByLabel(/^\s*password\s*$/i).getAttribute('aria-invalid')).to.equal('true');
      expect(await page.getByLabel(/username/i).inputValue()).to.equal('alice');
      expect(await page.getByRole('button', { name: /^\s*sign in\s*$/i }).isVisible()).to.equal(true);
      await page.screenshot({ path: screenshotPath(`login-${provider}-wrong-password`) });
      expect(callback.hits).to.deep.equal([]);
      expect(watch.problems).to.deep.equal([]);

      // The form still works after the error.
      await signIn(page, 'alice', 'alice');
      await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
      expect(new URL(page.url()).searchParams.get('state')).to.equal('wrong-password');
    } finally {
      await copy?.remove();
    }
  });
});
