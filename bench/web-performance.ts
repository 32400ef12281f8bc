// The web page as a person meets it, measured: Lighthouse (mobile, its default throttling) on the signed-in landing
// page ("My sightings", 2,000 of them) and on the signed-out page of a first visit, the median of a few runs each,
// and how long a vessel with 2,000 sightings takes from the route change to its first page on screen.
// Prints figures, asserts nothing. Run: `npm run bench:web` (PGlite in memory, the embedded provider), or with
// DATABASE_URL set (a scratch database of its own is not made: use a database you can fill).
// Settings: WEB_BENCH_SIGHTINGS (2000), WEB_BENCH_RUNS (5), WEB_BENCH_LIGHTHOUSE_RUNS (3),
// CHROMIUM_PATH (/usr/bin/chromium).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { navigation } from 'lighthouse';
import puppeteer, { type Page as LighthouseTab } from 'puppeteer-core';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../src/config/config.ts';
import { startWebServer, stopWebServer } from '../src/lifecycle/web-server.ts';

const sightings = Number(process.env.WEB_BENCH_SIGHTINGS ?? 2000);
const runs = Number(process.env.WEB_BENCH_RUNS ?? 5);
const lighthouseRuns = Number(process.env.WEB_BENCH_LIGHTHOUSE_RUNS ?? 3);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const debuggingPort = 9300 + Math.floor(Math.random() * 500);

const web = await startWebServer(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'true',
  LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' }));
const profile = await mkdtemp(join(tmpdir(), 'web-bench-'));
// Chromium with a debugging port: Playwright signs in and fills the database, Lighthouse (through Puppeteer) then
// measures in that same signed-in tab.
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath, headless: true, viewport: { width: 1100, height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', `--remote-debugging-port=${debuggingPort}`],
});

try {
  const page = browser.pages()[0] ?? await browser.newPage();
  await signIn(page, 'alice');
  const vesselId = await vesselWithSightings(page, sightings);
  console.log(`web page, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ` +
    `Chromium ${browser.browser()?.version()}, node ${process.version}\n`);

  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await firstPageMs(page, vesselId));
  times.sort((a, b) => a - b);
  console.log(`vessel with ${sightings} sightings, route change to first page shown ` +
    `(${runs} runs): median ${times[Math.floor(runs / 2)]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)}, ` +
    `max ${times.at(-1)!.toFixed(0)}`);

  // The tab keeps its session storage (the tokens) across navigations: leave the page, then let Lighthouse load it
  // afresh, as a person opening the page signed in: the landing screen, alice's own 2,000 sightings.
  await page.goto('about:blank');
  const puppeteerBrowser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${debuggingPort}` });
  const signedInTab = (await puppeteerBrowser.pages()).find((tab) => tab.url() === 'about:blank')!;
  await lighthouse(`the signed-in landing page (${sightings} sightings)`, signedInTab, true, async () => {
    // Measured signed in: the tab shows alice's landing screen with its rows.
    await page.locator('table.sightings tbody tr').first().waitFor();
    const shownRows = await page.locator('table.sightings tbody tr').count();
    return `signed in as ${await page.locator('header .user').innerText()}, ${shownRows} rows on screen`;
  });
  // A first visit: a browser context of its own, nothing stored, so nobody was ever signed in there.
  const firstVisit = await puppeteerBrowser.createBrowserContext();
  const signedOutTab = await firstVisit.newPage();
  await lighthouse('the signed-out page of a first visit', signedOutTab, false, async () => {
    await signedOutTab.waitForSelector('main .welcome');
    const roundTrip = signedOutTab.url().includes('code=') ? ' (after a sign-in round trip)' : '';
    return `signed out, the welcome screen on screen${roundTrip}`;
  });
  await firstVisit.close();
  await puppeteerBrowser.disconnect();
} finally {
  await browser.close();
  await rm(profile, { recursive: true, force: true });
  await stopWebServer(web);
}

/**
 * Lighthouse `lighthouseRuns` times on `tab` at the page's address: the median of each category and every audit
 * below 0.9 in the median performance run. `shown` says what the tab showed once measured.
 */
async function lighthouse(what: string, tab: LighthouseTab, keepStorage: boolean,
  shown: () => Promise<string>): Promise<void> {
  const results: NonNullable<Awaited<ReturnType<typeof navigation>>>['lhr'][] = [];
  for (let run = 0; run < lighthouseRuns; run++) {
    const result = await navigation(tab, `${web.url}/`, {
      flags: { disableStorageReset: keepStorage, logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'] },
    });
    results.push(result!.lhr);
  }
  console.log(`measured ${await shown()}`);
  const median = (scores: number[]) => scores.toSorted((a, b) => a - b)[Math.floor(scores.length / 2)]!;
  const titles = Object.values(results[0]!.categories).map((category) => [category.id, category.title] as const);
  const figures = titles.map(([id, title]) => {
    const scores = results.map((lhr) => Math.round((lhr.categories[id]!.score ?? 0) * 100));
    return `${title} ${median(scores)} (${scores.join(', ')})`;
  });
  console.log(`Lighthouse ${results[0]!.lighthouseVersion} (mobile) on ${what}, ` +
    `median of ${lighthouseRuns}: ${figures.join(', ')}`);
  const performanceScores = results.map((lhr) => lhr.categories.performance!.score ?? 0);
  const typical = results[performanceScores.indexOf(median(performanceScores))]!;
  for (const audit of Object.values(typical.audits).filter((a) => a.score !== null && a.score < 0.9
    && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')) {
    const items = (audit.details as { items?: { url?: string }[] } | undefined)?.items?.map((item) => item.url)
      .filter(Boolean) ?? [];
    console.log(`  below 0.9: ${audit.id} ` +
      `(${audit.score}) ${audit.displayValue ?? ''}${items.length ? ` — ${items.join(', ')}` : ''}`);
  }
}

async function signIn(page: Page, user: string): Promise<void> {
  await page.goto(`${web.url}/`);
  await page.locator('main').getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(user);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('header .user', { hasText: user }).waitFor();
}

/** A new vessel and `count` sightings of it, recorded through the API with the page's own token. */
async function vesselWithSightings(page: Page, count: number): Promise<number> {
  const token = await page.evaluate<string>('JSON.parse(sessionStorage.getItem("sighting.tokens")).access');
  const admin = await passwordToken('admin');
  const post = (path: string, body: unknown, bearer: string) => fetch(`${web.url}/api${path}`, {
    method: 'POST', headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const created = await post('/vessel', { vesselName: { en: `Benchmark ${Date.now()}` } }, admin);
  const vesselId = Number(created.headers.get('Location')!.split('/').pop());
  for (let done = 0; done < count; done += 50) {
    await Promise.all(Array.from({ length: Math.min(50, count - done) }, (_, i) =>
      post('/sighting',
        { sightingMemo: `sighting ${done + i}`, vessel: { vesselId }, sightingDate: '2026-11-25T10:00' }, token)));
  }
  return vesselId;
}

async function passwordToken(user: string): Promise<string> {
  const answer = await fetch(`${web.url}/realms/sighting/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username: user, password: user }),
  });
  return (await answer.json() as { access_token: string }).access_token;
}

/** From the route change in the open page to the first page's rows in the document, measured by the page's clock. */
async function firstPageMs(page: Page, vesselId: number): Promise<number> {
  await page.goto(`${web.url}/#mine`);
  await page.getByRole('heading', { name: 'My sightings' }).waitFor();
  return page.evaluate<number>(`new Promise((resolve) => {
    const start = performance.now();
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll('table.sightings tbody tr').length >= 50
        && document.querySelector('[data-testid="vessel-summary"]')) {
        observer.disconnect();
        resolve(performance.now() - start);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    location.hash = '#vessel/${vesselId}';
  })`);
}
