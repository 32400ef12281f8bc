// Smaller things of the lists: a reversed date range is said by its field, a 4,000-character memo keeps its row
// short, sort buttons are big enough to hit, and a vessel's page asks for the vessels' names beside its change feed,
// then for its rows and which are yours at once.
import { expect } from 'chai';
import { axeViolations } from '../support/axe.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { browserSuite, sightingListRequest, unexpectedProblems } from '../support/web-page.ts';

describe('web page: smaller things of the lists', () => {
  const suite = browserSuite();

  it('when the page loads, ' +
    'then its settings are asked for once, beside its script (preloaded and used)', async function () {
    const context = await suite.browser.newContext();
    try {
      const page = await context.newPage();
      const settings: string[] = [];
      const warnings: string[] = [];
      page.on('request',
        (request) => { if (request.url().endsWith('/web-config.json')) settings.push(request.url()); });
      page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
      await page.goto(`${suite.service.url}/`);
      await page.locator('main').getByRole('button', { name: 'Sign in' }).waitFor();
      expect(settings).to.have.length(1);
      expect(warnings.filter((warning) => /preload/i.test(warning))).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('when alice asks for a last day before the first, ' +
    'then the To field says so and nothing is asked of the API', async function () {
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.getByRole('heading', { name: 'My sightings' }).waitFor();
    await page.getByLabel('From', { exact: true }).fill('2026-11-20');
    await page.getByLabel('To', { exact: true }).fill('2026-11-10');
    const lists: string[] = [];
    page.on('request', (request) => { if (sightingListRequest.test(request.url())) lists.push(request.url()); });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const error = page.getByText('The last day is before the first; pick a last day on or after it.');
    await error.waitFor();
    expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    expect(await page.evaluate('document.activeElement?.name')).to.equal('to');
    expect(lists).to.deep.equal([]);
    expect(await axeViolations(page)).to.deep.equal([]);
    // An address with the days reversed (a shared link, Back) says the same, on a vessel's screen too, and asks
    // nothing.
    await page.goto(`${suite.service.url}/#mine?from=2026-11-20&to=2026-11-10`);
    await error.waitFor();
    await page.goto(`${suite.service.url}/#vessel/-1?from=2026-11-20&to=2026-11-10`);
    await page.getByRole('heading', { name: 'Sightings by vessel' }).waitFor();
    await error.waitFor();
    expect(lists).to.deep.equal([]);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when a row has a 4,000-character memo, ' +
    'then the row stays a few lines tall; the sort buttons are at least 44 px tall', async function () {
    const vesselId = await createVessel(suite.service);
    const id = await createSighting(suite.service,
      buildSighting({ vessel: { vesselId }, sightingMemo: 'long words '.repeat(364).slice(0, 4000) }));
    const alice = await suite.signIn('alice');
    const page = alice.page;
    // In the order the browser reports them.
    const traffic: string[] = [];
    const kind = (url: string) => (/\/api\/vessel(\?|$)/.test(url) ? 'vessels'
      : /\/api\/sighting\/events\?/.test(url) ? 'feed' : !sightingListRequest.test(url)
        ? undefined : url.includes('mine=true') ? 'own' : 'page');
    page.on('request', (request) => { if (kind(request.url())) traffic.push(`asked ${kind(request.url())}`); });
    page.on('response', (response) => { if (kind(response.url())) traffic.push(`answered ${kind(response.url())}`); });
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    const row = page.locator(`tr[data-sighting-id="${id}"]`);
    await row.waitFor();
    expect((await row.boundingBox())!.height).to.be.lessThan(250);
    for (const name of ['Date and time', 'Time zone']) {
      expect((await page.getByRole('button', { name, exact: false }).first().boundingBox())!.height).to.be.at.least(44);
    }
    // The page's rows and which of them are hers: both asked before either is answered.
    expect(traffic.indexOf('asked own')).to.be.within(0, traffic.indexOf('answered page'));
    // The vessels' names for the picker asked beside the change feed, not after it; the rows once the feed has
    // answered (a sighting recorded between the reads and the feed's start would be announced by nobody).
    expect(traffic.indexOf('asked vessels')).to.be.within(0, traffic.indexOf('answered feed'));
    expect(traffic.indexOf('asked page')).to.be.above(traffic.indexOf('answered feed'));
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });
});
