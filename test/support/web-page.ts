// Drives the web page at `/` as a person would: one browser context per person, signing in on the realm's login page.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { STEP_TIMEOUT_MS, closeBrowser, launchBrowser, watchContext, type PageWatch } from './browser.ts';
import { sharedService, type TestService } from './service.ts';
import type { User } from './tokens.ts';
import { buildSighting, createSighting, createVessel } from './fixtures.ts';

export interface Person {
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
  close(): Promise<void>;
}

export interface PersonOptions {
  /** The browser's language (navigator.languages, Accept-Language); default en-US. */
  locale?: string;
  /** Default a desktop window; a phone is 390 x 844. */
  viewport?: { width: number; height: number };
  /** Chosen in the page's language menu before signing in (else the browser's language counts). */
  language?: string;
  /** Called on the realm's login page, before the person types. */
  onLoginPage?: (page: Page) => Promise<void>;
}

/** A fresh browser context (no cookies, no storage) with the page open at `/` and signed in as `user`. */
export async function signedIn(browser: Browser, service: TestService, user: User,
  options: PersonOptions = {}): Promise<Person> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1100, height: 900 },
    locale: options.locale ?? 'en-US' });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  const watch = await watchContext(context, [service.url, new URL(service.realm).origin]);
  const page = await context.newPage();
  await page.goto(`${service.url}/`);
  if (options.language) await page.locator('#language').selectOption(options.language);
  await page.locator('header button', { hasText: /^(Sign in|Anmelden)$/ }).click();
  // The realm's login page, the embedded provider's or Keycloak's, in English or German as the page asked.
  await page.getByLabel(/username|benutzername/i).waitFor();
  await options.onLoginPage?.(page);
  await page.getByLabel(/username|benutzername/i).fill(user);
  await page.getByLabel(/^\s*(password|passwort)\s*$/i).fill(user);
  await page.getByRole('button', { name: /^\s*(sign in|anmelden)\s*$/i }).click();
  await page.waitForURL((url) => url.origin === service.url && !url.searchParams.has('code'));
  await page.locator('header .user', { hasText: user }).waitFor();
  return { context, page, watch, close: () => context.close() };
}

/** The page's problems (errors, failed requests, answers >= 400) except the statuses a test provokes on purpose. */
export function unexpectedProblems(watch: PageWatch, expected: RegExp[] = []): string[] {
  return watch.problems.filter((problem) => !expected.some((pattern) => pattern.test(problem)));
}

/** The vessel screen's summary line and its table, one array of cell texts per row. */
export async function vesselScreen(page: Page): Promise<{ summary: string; rows: string[][] }> {
  // The memos fill in after the rows (each from its detail view): read the rows once they are all there.
  await page.locator('main [aria-busy="true"]').waitFor({ state: 'detached' });
  const summary = await page.getByTestId('vessel-summary').innerText();
  const rows = await Promise.all((await page.locator('table.sightings tbody tr').all()).map(async (tr) =>
    (await tr.locator('td').allInnerTexts()).map((text) => text.trim())));
  return { summary, rows };
}

/**
 * Follows a link of the header's navigation and waits for the screen it leads to. The old screen stays on the page
 * until the hash change renders the new one, and both the record and the vessel screen have a field labelled "Vessel".
 */
export async function openScreen(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

/**
 * Stops the page's clock (Playwright's, for the page's timers and `Date`) until the test moves it on (`runFor`,
 * `resume`): a test that looks at a countdown (the few seconds a delete can be undone) does not race it on a loaded
 * machine. axe then needs `{ clockPaused: true }` (test/support/axe.ts).
 */
export async function pauseClock(page: Page): Promise<void> {
  await page.clock.install();
  // The installed clock runs on until it is paused, at a time not yet passed: a moment ahead of the page's now, and
  // again if a loaded machine let the page's clock pass it first ("Cannot fast-forward to the past").
  for (;;) {
    try {
      return await page.clock.pauseAt(await page.evaluate<number>('Date.now()') + 100);
    } catch (error) {
      if (!String(error).includes('to the past')) throw error;
    }
  }
}

/** The elements' `innerText`s: Playwright's `allInnerTexts` did not return while the page's clock was paused. */
export const innerTexts = (locator: Locator): Promise<string[]> =>
  locator.evaluateAll((elements) => elements.map((element) => (element as unknown as { innerText: string }).innerText));

/**
 * Does `action` (a click that changes the address) and waits until the screen it leads to is drawn. The page draws
 * each screen in a `main` of its own, busy (`aria-busy`) until its content is in; waiting for an element instead can
 * match the screen before, where it was too (`#admin` shows the new vessel's form that `#admin/new` draws again),
 * and find the page between the two, empty.
 */
export async function toNextScreen(page: Page, action: () => Promise<void>): Promise<void> {
  await page.evaluate(`document.getElementById('main')?.setAttribute('data-left', '')`);
  await action();
  await page.locator('#main:not([data-left]):not([aria-busy])').waitFor();
}

/**
 * A suite of the page against the shared service: the browser is launched before its tests and closed after them,
 * with everyone `signIn` signed in. Call it in the `describe` body; the fields are set once its `before` has run.
 */
export function browserSuite(): {
  browser: Browser; service: TestService; signIn(user: User, options?: PersonOptions): Promise<Person>;
} {
  const people: Person[] = [];
  const suite = {
    browser: undefined as unknown as Browser,
    service: undefined as unknown as TestService,
    async signIn(user: User, options: PersonOptions = {}) {
      const person = await signedIn(suite.browser, suite.service, user, options);
      people.push(person);
      return person;
    },
  };
  before(async function () {
    suite.browser = await launchBrowser(this);
    suite.service = await sharedService();
  });
  after(async () => {
    await Promise.all(people.map((person) => person.close()));
    await closeBrowser(suite.browser);
  });
  return suite;
}

/** A new vessel with three new sightings of `user`'s, its screen open in `user`'s page showing all three. */
export async function vesselWithThreeSightings(suite: ReturnType<typeof browserSuite>, user: User = 'alice') {
  const vesselId = await createVessel(suite.service);
  const ids: number[] = [];
  for (let n = 0; n < 3; n++) {
    ids.push(await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), user));
  }
  const person = await suite.signIn(user);
  await person.page.goto(`${suite.service.url}/#vessel/${vesselId}`);
  await person.page.getByText('1–3 of 3', { exact: true }).waitFor();
  return { vesselId, ids: ids as [number, number, number], person, page: person.page };
}

/** A request for a page of the sighting list (the detail view's operation, or the list view's), not a search. */
export const sightingListRequest = /\/api\/sighting(\/detail-view)?\?/;
