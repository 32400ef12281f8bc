// Import and export on the page: a CSV file previewed, refused whole for one bad row (its row and field said in the
// person's language, nothing stored), then fixed and imported with its upload shown; and the CSV export of a search
// holding exactly the search's rows in its order.
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { axeViolations } from '../support/axe.ts';
import { screenshotPath } from '../support/browser.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems } from '../support/web-page.ts';

describe('web page: import and export', () => {
  const suite = browserSuite();

  /**
   * A CSV of sightings of `vesselId`, one per memo, with the header an export writes. No zone and no date: alice's
   * lists in other tests' orders by zone or date keep their first page (nulls come last).
   */
  const csvOf = (vesselId: number, memos: string[]): Buffer => Buffer.from(
    ['sightingMemo,vessel.vesselId,sightingTimezone,sightingDate',
      ...memos.map((memo) => `"${memo}",${vesselId},,`)].join('\r\n') + '\r\n');

  const storedMemos = async (vesselId: number): Promise<string[]> => {
    const api = await apiClient(suite.service, { user: 'alice' });
    const { data } = await api.GET('/sighting/detail-view', { params: { query: { vesselId } } });
    return (data ?? []).map((sighting) => sighting.sightingMemo);
  };

  /** Every text the import's status line shows from now on, however briefly: read from its mutations. */
  const recordStatus = (page: Page) => page.evaluate(`(() => {
    window.importStatus = [];
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        for (const node of mutation.addedNodes) window.importStatus.push(node.textContent);
      }
    }).observe(document.querySelector('[data-testid="import-status"]'), { childList: true });
  })()`);

  for (const [language, words] of [
    ['en', { nav: 'Import', title: 'Import from a file', file: 'File (CSV or JSON)', confirm: 'Import 3 records',
      caption: 'The first 3 of 3 records in the file', nothing: 'Nothing was stored.',
      problem: ['2', 'sightingMemo', 'The memo must have at least 2 characters.'], sending: 'Sending the file…',
      storing: 'Storing 3,000 records…', stored: '3,000 records stored.', show: 'Show them in My sightings',
      mine: 'My sightings' }],
    ['de', { nav: 'Importieren', title: 'Aus einer Datei importieren', file: 'Datei (CSV oder JSON)',
      confirm: '3 Datensätze importieren', caption: 'Die ersten 3 von 3 Datensätzen der Datei',
      nothing: 'Es wurde nichts gespeichert.',
      problem: ['2', 'sightingMemo', 'Das Memo muss mindestens 2 Zeichen haben.'],
      sending: 'Die Datei wird gesendet …', storing: '3.000 Datensätze werden gespeichert …',
      stored: '3.000 Datensätze gespeichert.', show: 'Unter „Meine Sichtungen“ ansehen', mine: 'Meine Sichtungen' }],
  ] as const) {
    it(`when alice imports a CSV with one bad row (${language}), then its row and field are said and nothing is ` +
      'stored; the fixed file of 3,000 rows shows its upload, then stores them all', async function () {
      const vesselId = await createVessel(suite.service);
      const alice = await suite.signIn('alice', { language,
        ...(language === 'de' && { viewport: { width: 390, height: 844 } }) });
      const page = alice.page;
      await page.getByRole('navigation').getByRole('link', { name: words.nav, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: words.title }).waitFor();

      await page.getByLabel(words.file).setInputFiles({ name: 'sightings.csv', mimeType: 'text/csv',
        buffer: csvOf(vesselId, ['first one', 'x', 'third one']) });
      await page.locator('table.preview caption', { hasText: words.caption }).waitFor();
      expect(await page.locator('table.preview tbody tr').count()).to.equal(3);
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.getByRole('button', { name: words.confirm }).click();
      const refusal = page.getByRole('alert').filter({ hasText: words.nothing });
      await refusal.waitFor();
      expect(await refusal.locator('table.import-errors tbody tr td').allInnerTexts())
        .to.deep.equal([...words.problem]);
      expect(await axeViolations(page)).to.deep.equal([]);
      await page.screenshot({ path: screenshotPath(`import-refused-${language}`), fullPage: true });
      expect(await storedMemos(vesselId)).to.deep.equal([]);

      // The fixed file, large enough to take a while on a slow upload line (the browser's own throttling).
      const memos = Array.from({ length: 3_000 }, (_, i) => `row ${i + 1} ${'of a larger import '.repeat(3)}`);
      await page.getByLabel(words.file).setInputFiles({ name: 'sightings.csv', mimeType: 'text/csv',
        buffer: csvOf(vesselId, memos) });
      await page.getByRole('button', { name: words.confirm.replace('3', language === 'de' ? '3.000' : '3,000') })
        .waitFor();
      const network = await alice.context.newCDPSession(page);
      await network.send('Network.enable');
      await network.send('Network.emulateNetworkConditions',
        { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 40_000 });
      await recordStatus(page);
      await page.getByRole('button', { name: /3[,.]000/ }).click();
      await page.locator('[role="status"][data-testid="import-status"]', { hasText: words.sending }).waitFor();
      expect(await page.locator('progress[value]').count()).to.equal(1);
      expect(await axeViolations(page)).to.deep.equal([]);
      const done = page.locator('.import-outcome [role="status"]', { hasText: words.stored });
      await done.waitFor({ timeout: 120_000 });
      await network.send('Network.emulateNetworkConditions',
        { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const seen = await page.evaluate<string[]>('window.importStatus');
      // The upload went by in steps, then the bar turned into "storing" until the answer came.
      expect(seen.some((text) => /\b([1-9]|[1-9]\d) %/.test(text)), seen.join(' | ')).to.equal(true);
      expect(seen).to.include(words.storing);
      expect(await axeViolations(page)).to.deep.equal([]);
      expect((await storedMemos(vesselId)).sort()).to.deep.equal([...memos].sort());

      await done.getByRole('link', { name: words.show }).click();
      await page.getByRole('heading', { level: 1, name: words.mine }).waitFor();
      expect(unexpectedProblems(alice.watch, [/400.*\/api\/sighting\/batch/])).to.deep.equal([]);
    });
  }

  it('when the administrator imports a JSON array of vessels, ' +
    'then its records are previewed by their fields and stored', async function () {
    const names = [unique('Imported vessel'), unique('Imported vessel')];
    const admin = await suite.signIn('admin');
    const page = admin.page;
    await page.goto(`${suite.service.url}/#import`);
    await page.getByLabel('What the file holds').selectOption('vessel');
    await page.getByLabel('File (CSV or JSON)').setInputFiles({ name: 'vessels.json', mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(names.map((en) => ({ vesselName: { en, de: `${en} (de)` } })))) });
    await page.locator('table.preview caption', { hasText: 'The first 2 of 2 records in the file' }).waitFor();
    expect(await page.locator('table.preview thead th').allInnerTexts())
      .to.deep.equal(['Row', 'vesselName.en', 'vesselName.de']);
    await page.getByRole('button', { name: 'Import 2 records' }).click();
    const done = page.locator('.import-outcome [role="status"]', { hasText: '2 records stored.' });
    await done.waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    const api = await apiClient(suite.service, { user: 'admin' });
    const { data } = await api.GET('/vessel');
    expect((data ?? []).map((vessel) => vessel.vesselName).filter((name) => names.includes(name!)).sort())
      .to.deep.equal([...names].sort());
    await done.getByRole('link', { name: 'Show them under Vessels' }).click();
    await page.getByRole('heading', { level: 1, name: 'Manage vessels' }).waitFor();
    expect(unexpectedProblems(admin.watch)).to.deep.equal([]);
  });

  it('when bob exports a search of a vessel in time-zone order, ' +
    'then the CSV file holds exactly the search\'s rows in that order', async function () {
    const vesselId = await createVessel(suite.service);
    const word = unique('comet').replace(/\W/g, '');
    const zones = ['Pacific/Auckland', 'Africa/Abidjan', 'Europe/Berlin', 'America/Lima'];
    for (const [i, zone] of zones.entries()) {
      await createSighting(suite.service, buildSighting({ vessel: { vesselId }, sightingTimezone: zone,
        sightingMemo: i === 2 ? 'no match here' : `${word} ${i}` }), i % 2 ? 'bob' : 'alice');
    }
    const bob = await suite.signIn('bob');
    const page = bob.page;
    await page.goto(`${suite.service.url}/#search?q=${word}&vessel=${vesselId}&sort=-sightingTimezone`);
    await page.getByText('1–3 of 3', { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export as CSV' }).click()]);
    expect(download.suggestedFilename()).to.match(/^sighting-\d{8}T\d{6}Z\.csv$/);
    const rows = parse(await readFile((await download.path())!), { columns: true }) as Record<string, string>[];

    const api = await apiClient(suite.service, { user: 'bob' });
    const { data } = await api.POST('/sighting/qbe', { params: { query: { vesselId, sort: '-sightingTimezone' } },
      body: { sightingMemo: word } });
    expect(rows.map((row) => Number(row.sightingId))).to.deep.equal((data ?? []).map((s) => s.sightingId));
    expect(rows.map((row) => row.sightingTimezone)).to.deep.equal(['Pacific/Auckland', 'America/Lima',
      'Africa/Abidjan']);
    expect(rows.every((row) => row.sightingMemo!.startsWith(word))).to.equal(true);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });
});
