// Deletes as in a mail client: each has its own Undo until it is sent, several at once; a sent delete takes its row
// away in place, the pages shown, the scroll, the focus and the address kept.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { apiClient } from '../support/api-client.ts';
import { axeViolations } from '../support/axe.ts';
import { vesselWithSightings } from '../support/vessel-sightings.ts';
import {
  browserSuite, innerTexts, pauseClock, unexpectedProblems, vesselWithThreeSightings,
} from '../support/web-page.ts';

describe('web page: deletes that undo, in place', () => {
  const suite = browserSuite();

  const shownIds = (page: Page) => page.locator('table.sightings tbody tr[data-sighting-id]:not([hidden])')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
  const statusOf = async (id: number) => (await (await apiClient(suite.service,
    { user: 'alice' })).GET('/sighting/{id}', { params: { path: { id } } })).response.status;

  it('when alice deletes two sightings at once and undoes the second, ' +
    'then each had its own Undo, the first goes in place and the second stays', async function () {
    const { vesselId, ids: [a, b, c], person: alice, page } = await vesselWithThreeSightings(suite);
    // The page's clock stands still while the test looks at both countdowns: on a loaded machine the checks below took
    // longer than the 6 s a delete waits, and b's was sent before its Undo was clicked.
    await pauseClock(page);

    await page.getByRole('button', { name: `Delete #${a}`, exact: true }).click();
    // The Undo takes the Delete button's place and the focus: nothing moved.
    await page.waitForFunction(`document.activeElement?.closest('tr')?.getAttribute('data-deleting-id') === '${a}'`);
    await page.getByRole('button', { name: `Delete #${b}`, exact: true }).click();
    const lines = page.locator('tr.deleting');
    // Each counts down from 6.
    expect(await innerTexts(lines))
      .to.deep.equal([`Sighting #${b} is deleted in 6 seconds. Undo`, `Sighting #${a} is deleted in 6 seconds. Undo`]);
    // The page's notice lists both too, in the order they were asked for.
    expect((await innerTexts(page.locator('.pending-deletes li'))).map((text) => text.replace(/\s+/g, ' ')))
      .to.deep.equal([`Sighting #${a} is deleted in 6 seconds. Undo`, `Sighting #${b} is deleted in 6 seconds. Undo`]);
    expect(await axeViolations(page, [], { clockPaused: true })).to.deep.equal([]);

    await lines.getByRole('button', { name: `Undo the delete of #${b}` }).click();
    await page.locator('.undo', { hasText: `Sighting #${b} is kept.` }).waitFor();
    expect(await shownIds(page)).to.deep.equal([c, b]);
    // a's own Undo is still there until its delete is sent, in its row and in the page's notice; b's is in neither.
    expect([await page.getByRole('button', { name: `Undo the delete of #${a}` }).count(),
      await page.getByRole('button', { name: `Undo the delete of #${b}` }).count()]).to.deep.equal([2, 0]);

    // a's countdown runs out.
    await page.clock.resume();
    await page.locator(`tr[data-sighting-id="${a}"]`).waitFor({ state: 'detached' });
    await page.locator('.undo', { hasText: 'The sighting is deleted.' }).waitFor();
    expect([await shownIds(page), await lines.count(), new URL(page.url()).hash])
      .to.deep.equal([[c, b], 0, `#vessel/${vesselId}`]);
    await page.getByText('1–2 of 2', { exact: true }).waitFor();
    await page.getByText('Sightings of this vessel: 2, people who sighted it: 1, yours: 2').waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    expect([await statusOf(a), await statusOf(b)]).to.deep.equal([404, 200]);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when alice deletes row 121 of three pages, ' +
    'then the row goes in place: pages, scroll, focus and address kept', async function () {
    const { vesselId } = await vesselWithSightings(suite.service, 130);
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('1–50 of 130', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show older sightings' }).click();
    await page.getByText('1–100 of 130', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show older sightings' }).click();
    await page.getByText('1–130 of 130', { exact: true }).waitFor();
    const ids = await shownIds(page);
    const [target, after] = [ids[120]!, ids[121]!];

    // Far down the list, by keyboard.
    await page.getByRole('button', { name: `Delete #${target}`, exact: true }).focus();
    await page.getByRole('button', { name: `Delete #${target}`, exact: true }).scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate('scrollY') as number;
    expect(scrolled).to.be.greaterThan(1000);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      `document.activeElement?.closest('tr')?.getAttribute('data-deleting-id') === '${target}'`);
    expect(await page.evaluate('scrollY')).to.equal(scrolled);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.locator(`tr[data-sighting-id="${target}"]`).waitFor({ state: 'detached' });
    await page.getByText('1–129 of 129', { exact: true }).waitFor();
    // The focus went to the row now in its place, and nothing else moved.
    expect(await page.evaluate(`document.activeElement?.closest('tr')?.getAttribute('data-sighting-id')`))
      .to.equal(String(after));
    expect(await page.evaluate('scrollY')).to.equal(scrolled);
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}?pages=3`);
    expect(await shownIds(page)).to.deep.equal(ids.filter((id) => id !== target));
    expect(await page.locator('.undo').innerText()).to.equal('The sighting is deleted.');
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(await statusOf(target)).to.equal(404);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });
});
