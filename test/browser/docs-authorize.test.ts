// /docs as a person uses it: "Authorize" offers the one flow a browser completes and signs in through the realm's login
// page (sighting-web, PKCE), then "Try it out" calls the API.
import { createConnection } from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { STEP_TIMEOUT_MS, closeBrowser, launchBrowser, screenshotPath, watchContext } from '../support/browser.ts';
import { startService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

// The realm lets the browser client call the token endpoint (CORS) only from its listed web origins; the service's
// default port 8080 is one of them, an ephemeral test port is not. So this file runs a service of its own on 8080.
const PORT = 8080;

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

describe('docs page: Authorize with the browser client, then Try it out', () => {
  let browser: Browser;
  let service: TestService | undefined;

  before(async function () {
    browser = await launchBrowser(this);
    if (await portInUse(PORT)) {
      console.warn(`    (skipped: port ${PORT}, the web origin the realm allows for sighting-web, is in use)`);
      this.skip();
    }
    service = await startService({ PORT: String(PORT) });
  });
  after(async () => {
    await closeBrowser(browser);
    await service?.stop();
  });

  it('when alice authorizes in Swagger UI and executes getSighting for -1, ' +
    'then the page shows 200 and the sighting', async () => {
    const origin = service!.url;
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    try {
      const watch = await watchContext(context, [origin, new URL(service!.realm).origin]);
      const page = await context.newPage();
      await page.goto(`${origin}/docs`);
      await page.locator('.opblock').first().waitFor();

      await page.getByRole('button', { name: 'Authorize' }).click();
      // The one flow a browser page completes, and the dialog says why the others are not there.
      const flows = page.locator('.auth-container').filter({ hasText: '(OAuth2, ' });
      expect(await flows.locator('h4').allInnerTexts()).to.deep.equal(['oauth2 (OAuth2, authorizationCode with PKCE)']);
      expect(await flows.innerText()).to.match(/one OAuth 2\.0 flow a browser page can complete/)
        .and.match(/client credentials .* flows are not offered on this page/s);
      const codeFlow = page.locator('.auth-container').filter({ hasText: 'OAuth2, authorizationCode with PKCE' });
      expect(await codeFlow.locator('#client_id_authorizationCode').inputValue()).to.equal('sighting-web');
      const popupOpened = context.waitForEvent('page');
      await codeFlow.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
      const popup = await popupOpened;
      await popup.waitForLoadState();
      const authorizeUrl = new URL(popup.url());
      expect(authorizeUrl.origin + authorizeUrl.pathname).to.equal(`${service!.realm}/protocol/openid-connect/auth`);
      expect(Object.fromEntries(['client_id', 'response_type', 'code_challenge_method', 'redirect_uri',
        'scope'].map((key) => [key, authorizeUrl.searchParams.get(key)])))
        .to.deep.equal({ client_id: 'sighting-web', response_type: 'code', code_challenge_method: 'S256',
          redirect_uri: `${origin}/docs/oauth2-redirect.html`, scope: 'openid' });

      await popup.getByLabel(/username/i).fill('alice');
      await popup.getByLabel(/^\s*password\s*$/i).fill('alice');
      // Listening before the click: the popup may close (redirect page, opener called, window.close) before the
      // click's promise settles here, and a page already closed never emits 'close' again.
      const popupClosed = popup.waitForEvent('close');
      await popup.getByRole('button', { name: /^\s*sign in\s*$/i }).click();
      await popupClosed;
      await codeFlow.getByRole('button', { name: 'Remove authorization' }).waitFor();
      expect(await codeFlow.innerText()).to.contain('Authorized').and.not.contain('Auth Error');
      await page.locator('.modal-ux .close-modal').click();

      const operation = page.locator('#operations-sighting-getSighting');
      await operation.locator('.opblock-summary-control').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByPlaceholder('id').fill('-1');
      await operation.getByRole('button', { name: 'Execute' }).click();
      const live = operation.locator('.live-responses-table tbody tr.response');
      await live.waitFor();
      expect(await live.locator('.response-col_status').innerText()).to.equal('200');
      const body =
        JSON.parse(await live.locator('.response-col_description pre.microlight').first().innerText()) as unknown;
      // A service of our own: the demo sighting is as seeded.
      expect(body).to.deep.equal({
        version: 0, sightingId: -1, sightingMemo: 'unheimlich!',
        vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' },
        sightingTimezone: null, sightingDate: null,
      });
      await operation.screenshot({ path: screenshotPath('docs-try-it-out') });
      expect(watch.problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
