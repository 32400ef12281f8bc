// A real Chromium (Debian's /usr/bin/chromium) for the browser tests: launch and close, a per-page watcher,
// screenshots.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's package; playwright never downloads a browser of its own here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the networking flags an offline Chromium keeps trying to reach Google's services. */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * How long one step in a page (a navigation, a wait for an element) may take before the test fails: a bound for a
 * loaded 2-core machine where Chromium shares the cores with the other suites, not an expectation.
 */
export const STEP_TIMEOUT_MS = 60_000;

/**
 * One browser for a test file: call from `before`. Skips the file when Chromium is not installed
 * (CI always installs it with scripts/install-chromium.sh). Playwright's launch makes a fresh temporary profile.
 */
export async function launchBrowser(context: Mocha.Context, extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.warn(`    (browser tests skipped: ${CHROMIUM_PATH} is missing; run scripts/install-chromium.sh)`);
    context.skip();
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs], timeout: STEP_TIMEOUT_MS });
}

export async function closeBrowser(browser: Browser | undefined): Promise<void> {
  await browser?.close();
}

/** What went wrong in a page, one line each: page errors, console errors, failed requests and answers >= 400. */
export interface PageWatch {
  /** Every URL the page asked for, in order. */
  requests: string[];
  problems: string[];
}

/**
 * Watches every page of `context`. Requests to other origins than `allowedOrigins` are recorded as problems
 * and aborted, so a page that would reach out to the internet fails the test instead of hanging offline.
 */
export async function watchContext(context: BrowserContext, allowedOrigins: string[]): Promise<PageWatch> {
  const watch: PageWatch = { requests: [], problems: [] };
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    const origin = url.startsWith('data:') || url.startsWith('blob:') ? 'local' : new URL(url).origin;
    if (origin === 'local' || allowedOrigins.includes(origin)) await route.continue();
    else {
      watch.problems.push(`request leaves the allowed origins: ${route.request().method()} ${url}`);
      await route.abort('blockedbyclient');
    }
  });
  const onPage = (page: Page) => {
    page.on('pageerror', (error) => watch.problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error')
        watch.problems.push(`console error: ${message.text()} (${message.location().url})`);
    });
    page.on('request', (request) => watch.requests.push(request.url()));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText ?? 'failed';
      // Aborted on purpose above, already reported; or a change feed the page ends as the person leaves its screen.
      const feedLeft = reason.includes('ERR_ABORTED') && request.headers().accept === 'text/event-stream';
      // Keycloak's own sign-in page, left by its form's submit while its background image or a font still loads.
      const signInPageLeft = reason.includes('ERR_ABORTED')
        && /\/resources\/[^/]+\/(login|common)\//.test(new URL(request.url()).pathname);
      if (!reason.includes('BLOCKED_BY_CLIENT') && !feedLeft && !signInPageLeft)
        watch.problems.push(`request failed: ${request.method()} ${request.url()}: ${reason}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400)
        watch.problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
    });
  };
  context.pages().forEach(onPage);
  context.on('page', onPage);
  return watch;
}

/**
 * The status of the page's icon (its `<link rel="icon">`, else `/favicon.ico`), or 200 for an inline one.
 * Browsers fetch it on their own, outside the page's requests, so a missing icon shows up only now and then
 * as a console error: ask for it explicitly instead. `resolve` maps host names the browser alone knows
 * (--host-resolver-rules) to the address to connect to.
 */
export async function iconStatus(page: Page,
  resolve: Record<string, string> = {}): Promise<{ url: string; status: number }> {
  // Read once the document is parsed, not within a guessed second: a page without such a link answers null at once.
  await page.waitForLoadState('domcontentloaded');
  const href = await page.locator('link[rel~="icon"]').evaluateAll((links) => links[0]?.getAttribute('href') ?? null);
  const url = new URL(href ?? '/favicon.ico', page.url());
  if (url.protocol === 'data:') return { url: url.href, status: 200 };
  const target = new URL(url);
  const address = resolve[url.hostname];
  if (address) target.hostname = address;
  const response = await page.request.get(target.href, { headers: { Host: url.host }, maxRedirects: 0 });
  return { url: url.href, status: response.status() };
}

/** Where screenshots go: $SCREENSHOT_DIR, else the git-ignored test-artifacts/screenshots of the project. */
export function screenshotPath(name: string): string {
  const dir = process.env.SCREENSHOT_DIR ?? fileURLToPath(new URL('../../test-artifacts/screenshots', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}
