// GET /docs in a real Chromium: Swagger UI renders the contract offline, without errors or failed requests.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { sharedService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';
import {
  STEP_TIMEOUT_MS, closeBrowser, iconStatus, launchBrowser, screenshotPath, watchContext,
} from '../support/browser.ts';
import { axeViolations } from '../support/axe.ts';
import { docsAssets } from '../../src/app/docs.ts';

interface Operation { operationId: string; tags: string[] }
const contract = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
  info: { title: string; version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
// Swagger UI gives each operation the id `operations-<tag>-<operationId>`, in the order of the document.
const expectedOperationIds = contract.tags.flatMap(({ name }) => Object.values(contract.paths)
  .flatMap((item) => Object.entries(item).filter(([key]) => METHODS.includes(key)).map(([, operation]) => operation))
  .filter((operation) => operation.tags[0] === name)
  .map((operation) => `operations-${name}-${operation.operationId}`));

// A name that is not a loopback address, as in a deployment: Swagger UI treats localhost specially.
const PUBLIC_HOST = 'sighting-registry.test';

describe('docs page in a browser', () => {
  let browser: Browser;
  let service: TestService;

  before(async function () {
    service = await sharedService();
    browser = await launchBrowser(this, [`--host-resolver-rules=MAP ${PUBLIC_HOST} 127.0.0.1`]);
  });
  after(async () => { await closeBrowser(browser); });

  for (const host of ['loopback', 'public'] as const) {
    it(`when /docs is opened under a ${host} host name, then Swagger UI shows every operation of the contract, ` +
      `with no error and no request leaving the origin`, async () => {
      const origin = host === 'loopback' ? service.url : service.url.replace('127.0.0.1', PUBLIC_HOST);
      const context = await browser.newContext({ viewport: { width: 1280, height: 1600 } });
      context.setDefaultTimeout(STEP_TIMEOUT_MS);
      try {
        const watch = await watchContext(context, [origin]);
        const page = await context.newPage();

        const response = await page.goto(`${origin}/docs`);
        expect(response?.status()).to.equal(200);
        await page.locator('.opblock').first().waitFor();
        await page.waitForLoadState('networkidle');

        expect(await page.title()).to.equal('Sighting registry API');
        expect(await page.getByRole('heading', { level: 1 }).innerText())
          .to.match(new RegExp(`^Sighting registry\\s+${contract.info.version.replaceAll('.', '\\.')}\\s+OAS 3\\.1$`));
        expect(await page.locator('.opblock-tag-section h3.opblock-tag')
          .evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag'))))
          .to.deep.equal(contract.tags.map(({ name }) => name));
        expect(await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => block.id)))
          .to.deep.equal(expectedOperationIds);
        for (const id of ['operations-sighting-getSighting', 'operations-sighting-createSighting',
          'operations-vessel-deleteVessel']) {
          expect(await page.locator(`#${id}`).isVisible(), id).to.equal(true);
        }
        expect(await page.locator('#operations-sighting-getSighting .opblock-summary-path').innerText())
          .to.equal('/sighting/{id}');
        expect(await page.getByRole('button', { name: 'Authorize' }).isVisible()).to.equal(true);

        await page.screenshot({ path: screenshotPath(`docs-${host}`) });
        expect(watch.problems).to.deep.equal([]);
        expect(watch.requests.map((url) => new URL(url).pathname)).to.include.members(['/docs', '/docs/openapi.yaml']);
        expect(await iconStatus(page, { [PUBLIC_HOST]: '127.0.0.1' }))
          .to.deep.equal({ url: `${origin}${docsAssets}/favicon-32x32.png`, status: 200 });
      } finally {
        await context.close();
      }
    });
  }

  it('when /docs is read with one operation of each method open, ' +
    'then axe finds no violation but two of Swagger UI\'s page structure', async function () {
    // Five operations drawn open and axe over the whole contract's page: 8 s on a quiet machine, and more than the
    // usual 180 s once on a CI machine loaded by the other suites (every step within its own bound).
    this.timeout(600_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1600 } });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    try {
      const page = await context.newPage();
      await page.goto(`${service.url}/docs`);
      const operations = ['listSightings', 'createSighting', 'updateSighting', 'patchSighting', 'deleteSighting'];
      for (const id of operations) await page.locator(`#operations-sighting-${id} .opblock-summary-control`).click();
      await page.locator('.opblock-body').nth(operations.length - 1).waitFor();
      await page.locator('#servers[aria-label]').waitFor({ state: 'attached' });
      // Kept, as Swagger UI builds its page: its tag headings (h3) follow the title's h1 with no h2 between
      // (heading-order), and its info block sits outside any landmark (region). Both are axe best practices, not WCAG.
      expect(await axeViolations(page, ['heading-order', 'region'])).to.deep.equal([]);
      // Readable, and still marked: the deprecated operations (contract 1.2.0) keep Swagger UI's struck-through path.
      expect(await page.locator('.opblock-deprecated').evaluateAll((blocks) => blocks.map((block) => block.id)))
        .to.have.members(['operations-timezone-getTimezoneVersion', 'operations-vessel-getVesselVersion',
          'operations-sighting-getSightingVersion']);
      expect(await page.locator('.opblock-deprecated .opblock-summary-path__deprecated').count()).to.equal(3);
    } finally {
      await context.close();
    }
  });
});
