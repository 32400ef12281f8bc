// Long lists on the page: a vessel's sightings newest first, a page at a time; the signed-in landing is "My sightings".
import { expect } from 'chai';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems, vesselScreen, type Person } from '../support/web-page.ts';

describe('web page: long lists', () => {
  const suite = browserSuite();
  let person: Person | undefined;

  it('when a vessel has 55 sightings, ' +
    'then its screen shows the newest 50 first, and the rest after "Show older sightings"', async function () {
    const vesselId = await createVessel(suite.service);
    const ids: number[] = [];
    for (let i = 0; i < 55; i++)
      ids.push(await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), i % 2 ? 'alice' : 'bob'));
    person = await suite.signIn('bob');
    const page = person.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByTestId('vessel-summary').waitFor();
    const shown = async () => page.locator('table.sightings tbody tr')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
    expect((await vesselScreen(page)).summary)
      .to.equal('Sightings of this vessel: 55, people who sighted it: 2, yours: 28');
    expect(await shown()).to.deep.equal(ids.toReversed().slice(0, 50));
    await page.getByText('1–50 of 55', { exact: true }).waitFor();
    // By keyboard: Enter on the button; the focus goes on where the new rows begin, not to <body>.
    await page.getByRole('button', { name: 'Show older sightings' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('table.sightings tbody tr').nth(54).waitFor();
    await page.waitForFunction(`document.activeElement?.closest('tr')?.getAttribute('data-sighting-id') ` +
      `=== '${ids.toReversed()[50]}'`);
    expect(await shown()).to.deep.equal(ids.toReversed());
    await page.getByText('1–55 of 55', { exact: true }).waitFor();
    // Every row, the older page's too, shows its memo: each page came in the detail view, one request per page.
    const memos = await page.locator('table.sightings tbody td.memo').allInnerTexts();
    expect(memos).to.have.length(55);
    expect(memos.filter((memo) => memo.trim() === '')).to.deep.equal([]);
    expect(await page.getByRole('button', { name: 'Show older sightings' }).isHidden()).to.equal(true);
    // No request per row for the memos.
    expect(person.watch.requests.filter((url) => /\/api\/sighting\/\d+$/.test(url))).to.deep.equal([]);

    // A row of the second page opens its record; Back returns to the list as it was: both pages, that row focused.
    const opened = ids.toReversed()[52]!;
    await page.locator(`tr[data-sighting-id="${opened}"] a`).first().click();
    await page.getByRole('heading', { name: `Sighting #${opened}` }).waitFor();
    await page.goBack();
    await page.getByText('1–55 of 55', { exact: true }).waitFor();
    expect(await shown()).to.deep.equal(ids.toReversed());
    await page.waitForFunction(
      `document.activeElement?.closest('tr')?.getAttribute('data-sighting-id') === '${opened}'`);
    expect(unexpectedProblems(person.watch)).to.deep.equal([]);
  });

  it('when bob picks a date range on a vessel\'s screen, ' +
    'then only its days\' sightings show, the range stays in the address, and "All dates" lifts it', async function () {
    const vesselId = await createVessel(suite.service);
    const on = async (sightingDate: string, user: 'alice' | 'bob') =>
      createSighting(suite.service, buildSighting({ vessel: { vesselId }, sightingDate }), user);
    const [, first, mid, last] = [await on('2026-10-31T23:59', 'bob'), await on('2026-11-01T00:00', 'alice'),
      await on('2026-11-15T12:00', 'bob'),
      await on('2026-11-30T23:59:59.999', 'bob'), await on('2026-12-01T00:00', 'alice')];
    person ??= await suite.signIn('bob');
    const page = person.page;
    const shown = async () => page.locator('table.sightings tbody tr')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('1–5 of 5', { exact: true }).waitFor();
    await page.getByLabel('From').fill('2026-11-01');
    await page.getByLabel('To').fill('2026-11-30');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByText('1–3 of 3', { exact: true }).waitFor();
    // A date range lists its days in date order.
    expect(await shown()).to.deep.equal([first, mid, last]);
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}?from=2026-11-01&to=2026-11-30`);
    // Only bob's rows in the range are marked his; the range is asked of "which are mine" too.
    expect(await page.locator('table.sightings tbody tr:has(.badge)').evaluateAll((rows) =>
      rows.map((row) => Number(row.getAttribute('data-sighting-id'))))).to.deep.equal([mid, last]);
    // The range's numbers are in before the screen is left: a reload would cut their requests short (ERR_ABORTED).
    const rangeNumbers = page.getByTestId('vessel-summary').filter({ hasText: 'in these dates: 3, yours: 2' });
    await rangeNumbers.waitFor();
    await page.reload();
    await page.getByText('1–3 of 3', { exact: true }).waitFor();
    await rangeNumbers.waitFor();
    expect(await page.getByLabel('From').inputValue()).to.equal('2026-11-01');
    await page.getByRole('button', { name: 'All dates' }).click();
    await page.getByText('1–5 of 5', { exact: true }).waitFor();
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}`);
    // A count the screen asked again (its numbers refreshed) may still be in flight at the reload,
    // which cuts it short as it cuts any request of the page it leaves.
    expect(unexpectedProblems(person.watch, [/request failed: GET .*\/api\/sighting\?limit=1&.*net::ERR_ABORTED/]))
      .to.deep.equal([]);
  });

  it('when bob signs in, then he lands on his own sightings, newest first', async function () {
    const page = person!.page;
    await page.goto(`${suite.service.url}/`);
    await page.getByRole('heading', { name: 'My sightings' }).waitFor();
    await page.locator('table.sightings tbody tr').first().waitFor();
    const ids = await page.locator('table.sightings tbody tr')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
    expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
    expect(await page.locator('table.sightings tbody tr .badge').count()).to.equal(ids.length);
  });
});
