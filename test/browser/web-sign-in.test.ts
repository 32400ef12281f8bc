// The web page's session: it finds API and realm from the service (any BASE_PATH), refreshes its token, and signs out.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { closeBrowser, launchBrowser, screenshotPath } from '../support/browser.ts';
import { startService, type TestService } from '../support/service.ts';
import { openScreen, signedIn, unexpectedProblems, type Person } from '../support/web-page.ts';

describe('web page: sign-in, token refresh and sign-out, under a non-default BASE_PATH', () => {
  let browser: Browser;
  let service: TestService;
  let person: Person | undefined;

  before(async function () {
    browser = await launchBrowser(this);
    service = await startService({ BASE_PATH: '/registry/v2' });
  });
  after(async () => {
    await person?.close();
    await closeBrowser(browser);
    await service?.stop();
  });

  it('when the page is opened, ' +
    'then it is served at / and reads where the API and the realm are from the service', async () => {
    const page = await fetch(`${service.url}/`);
    expect({ status: page.status, type: page.headers.get('content-type') })
      .to.deep.equal({ status: 200, type: 'text/html; charset=utf-8' });
    expect(await page.text()).to.contain('<div id="app"></div>');
    const settings = await fetch(`${service.url}/web-config.json`);
    const { sortable, ...rest } = await settings.json() as { sortable: string[] };
    expect(rest).to.deep.equal({
      apiPath: '/registry/v2', issuer: service.realm, clientId: 'sighting-web',
      bounds: { sightingMemo: { min: 2, max: 4000 }, vesselName: { min: 1, max: 200 } },
      orderParameters: { vesselName: 'vesselNameOrder' },
    });
    // The orders the lists offer, as the contract's `sort` pattern names them (more as the contract adds them).
    expect(sortable).to.include.members(['sightingId', 'sightingTimezone', 'sightingDate']);
  });

  it('when alice signs in, then the page calls the API under BASE_PATH with her token', async function () {
    person = await signedIn(browser, service, 'alice');
    // The landing screen: her own sightings, newest first, read under the configured base path.
    await person.page.getByRole('heading', { name: 'My sightings' }).waitFor();
    await person.page.getByText('You have not recorded a sighting yet.').waitFor();
    const apiCalls = person.watch.requests.filter((url) => url.startsWith(`${service.api}/sighting`));
    // One page, with its memos (the detail view), and nothing else: the whole list of her own sightings is never
    // fetched.
    expect(apiCalls).to.deep.equal([`${service.api}/sighting/detail-view?limit=50&mine=true&sort=-sightingId`]);
    await person.page.screenshot({ path: screenshotPath('web-signed-in'), fullPage: true });
    expect(unexpectedProblems(person.watch)).to.deep.equal([]);
  });

  it('when the access token is about to expire, ' +
    'then the page refreshes it with the refresh token and keeps working', async function () {
    const page = person!.page;
    const before = await page.evaluate<{ access: string }>('JSON.parse(sessionStorage.getItem("sighting.tokens"))');
    await page.evaluate('sessionStorage.setItem("sighting.tokens", ' +
      'JSON.stringify({ ...JSON.parse(sessionStorage.getItem("sighting.tokens")), expiresAt: Date.now() }))');
    const refreshed = page.waitForRequest((request) => request.method() === 'POST' && /\/token$/.test(request.url())
      && /grant_type=refresh_token/.test(request.postData() ?? ''));
    await page.reload();
    expect((await (await refreshed).response())?.status()).to.equal(200);
    await openScreen(page, 'By vessel', 'Sightings by vessel');
    await page.getByLabel('Vessel', { exact: true }).selectOption('-1');
    await page.getByTestId('vessel-summary').waitFor();
    const after = await page.evaluate<{ access: string;
      expiresAt: number }>('JSON.parse(sessionStorage.getItem("sighting.tokens"))');
    expect(after.access).not.to.equal(before.access);
    expect(after.expiresAt).to.be.above(Date.now() + 60_000);
    expect(unexpectedProblems(person!.watch)).to.deep.equal([]);
  });

  it('when alice opens the page in a new tab while her provider session lives, ' +
    'then the tab signs in by itself, without the login page', async function () {
    const tab = await person!.context.newPage();
    const authorizations: string[] = [];
    tab.on('request', (request) => { if (/\/protocol\/openid-connect\/auth\?/.test(request.url()))
      authorizations.push(request.url()); });
    await tab.goto(`${service.url}/#search`);
    await tab.getByRole('heading', { name: 'Search sightings' }).waitFor();
    await tab.locator('header .user', { hasText: 'alice' }).waitFor();
    expect(authorizations.map((url) => new URL(url).searchParams.get('prompt'))).to.deep.equal(['none']);
    expect(await tab.getByLabel(/^\s*password\s*$/i).count()).to.equal(0);
    await tab.close();
  });

  it('when alice signs out, ' +
    'then the page forgets her tokens, and signing in again asks for a password', async function () {
    const page = person!.page;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor();
    expect(await page.evaluate('sessionStorage.getItem("sighting.tokens")')).to.equal(null);
    await page.screenshot({ path: screenshotPath('web-signed-out'), fullPage: true });
    const authorization = page.waitForRequest((request) => /\/protocol\/openid-connect\/auth\?/.test(request.url()));
    await page.locator('main').getByRole('button', { name: 'Sign in' }).click();
    // prompt=login: the provider's own session must not sign the next person in silently (OpenID Connect Core
    // §3.1.2.1).
    expect(new URL((await authorization).url()).searchParams.get('prompt')).to.equal('login');
    await page.getByLabel(/^\s*password\s*$/i).waitFor();

    // Signed out here, so a new tab does not sign her in silently either: it shows the signed-out screen.
    const tab = await person!.context.newPage();
    await tab.goto(`${service.url}/`);
    await tab.locator('main').getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await tab.locator('header .user').count()).to.equal(0);
    await tab.close();
  });

  it('when a person who never signed in in this browser opens the page, ' +
    'then the welcome screen shows at once, with no round trip to the provider', async function () {
    const context = await browser.newContext();
    const page = await context.newPage();
    const prompts: (string | null)[] = [];
    page.on('request', (request) => { if (/\/protocol\/openid-connect\/auth\?/.test(request.url()))
      prompts.push(new URL(request.url()).searchParams.get('prompt')); });
    await page.goto(`${service.url}/`);
    await page.locator('main').getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.locator('main').getByRole('button', { name: 'Sign in' }).waitFor();
    expect({ prompts, notice: await page.locator('.notice').innerText() }).to.deep.equal({ prompts: [], notice: '' });
    await context.close();
  });

  it('when someone signed in here before but the provider has forgotten them, ' +
    'then one silent attempt comes back signed out, with no error shown', async function () {
    const context = await browser.newContext();
    const page = await context.newPage();
    const prompts: (string | null)[] = [];
    page.on('request', (request) => { if (/\/protocol\/openid-connect\/auth\?/.test(request.url()))
      prompts.push(new URL(request.url()).searchParams.get('prompt')); });
    // What a past sign-in leaves in this browser, without the provider's session (its cookie) that went with it.
    await page.goto(`${service.url}/web-config.json`);
    await page.evaluate('localStorage.setItem("sighting.signed-in-before", "1")');
    await page.goto(`${service.url}/`);
    await page.locator('main').getByRole('button', { name: 'Sign in' }).waitFor();
    // Once: the next visit no longer asks.
    const tab = await context.newPage();
    tab.on('request', (request) => { if (/\/protocol\/openid-connect\/auth\?/.test(request.url()))
      prompts.push(new URL(request.url()).searchParams.get('prompt')); });
    await tab.goto(`${service.url}/`);
    await tab.locator('main').getByRole('button', { name: 'Sign in' }).waitFor();
    expect({ prompts, notice: await page.locator('.notice').innerText() })
      .to.deep.equal({ prompts: ['none'], notice: '' });
    await context.close();
  });
});
