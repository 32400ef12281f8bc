// The web page's search: sightings whose memo contains a text (query by example), yours marked; nothing found says so.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { closeBrowser, launchBrowser, screenshotPath } from '../support/browser.ts';
import { sharedService, type TestService } from '../support/service.ts';
import { buildSighting, createSighting, unique } from '../support/fixtures.ts';
import { openScreen, signedIn, unexpectedProblems, type Person } from '../support/web-page.ts';

describe('web page: search by text', () => {
  let browser: Browser;
  let service: TestService;
  let person: Person | undefined;

  before(async function () {
    browser = await launchBrowser(this);
    service = await sharedService();
  });
  after(async () => {
    await person?.close();
    await closeBrowser(browser);
  });

  it('when bob searches a part of two memos, then both sightings show with their memos, and only his own offers edit and delete', async function () {
    this.timeout(60_000);
    const word = unique('nebula').replace(/-/g, '');
    const alices = await createSighting(service, buildSighting({ sightingMemo: `A ${word} at dawn` }), 'alice');
    const bobs = await createSighting(service, buildSighting({ sightingMemo: `${word.toUpperCase()} again` }), 'bob');
    person = await signedIn(browser, service, 'bob');
    const page = person.page;
    await openScreen(page, 'Search', 'Search sightings');
    await page.getByLabel('Text in the memo').fill(word.slice(3, -3));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Matching sightings: 2').waitFor();
    const rows = await Promise.all((await page.locator('table.sightings tbody tr').all()).map(async (tr) => [
      Number(await tr.getAttribute('data-sighting-id')), await tr.locator('td.memo').innerText(), await tr.locator('td.row-actions').innerText(),
    ]));
    expect(rows).to.deep.equal([[alices, `A ${word} at dawn`, ''], [bobs, `${word.toUpperCase()} again`, 'yours\nEdit\nDelete']]);
    await page.screenshot({ path: screenshotPath('web-search'), fullPage: true });

    await page.getByLabel('Text in the memo').fill(unique('nothing like it'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No sighting matches.').waitFor();
    expect(unexpectedProblems(person.watch)).to.deep.equal([]);
  });
});
