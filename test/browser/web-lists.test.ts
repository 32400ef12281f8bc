// The page's lists at scale: search beside the filters renders one page of many matches, a column header sorts and the
// order survives a reload, a record's page shows its history, and an administrator moderates anyone's sighting.
import { expect } from 'chai';
import { apiClient } from '../support/api-client.ts';
import { axeViolations } from '../support/axe.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import { vesselWithSightings } from '../support/vessel-sightings.ts';
import { browserSuite, unexpectedProblems, type Person } from '../support/web-page.ts';
import type { Page } from 'playwright-core';

const shownIds = (page: Page) => page.locator('table.sightings tbody tr')
  .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));

describe('web page: lists at scale, history and moderation', () => {
  const suite = browserSuite();
  let bob: Person | undefined;

  it('when bob searches a word 2,001 sightings contain, ' +
    'then one page of 50 renders with "1–50 of 2,001", memos in the same request', async function () {
    const word = unique('seed').replace(/\W/g, '');
    // One through the API, 2,000 more beside it, by the same creator: 2,001 requests took 88 s on a loaded machine
    // (two busy cores), most of the test's bound, for what is not under test here.
    await vesselWithSightings(suite.service, 2_001, { memo: word });
    bob = await suite.signIn('bob');
    const page = bob.page;
    await page.goto(`${suite.service.url}/#search?${new URLSearchParams({ q: word.slice(2) })}`);
    await page.getByText('1–50 of 2,001', { exact: true }).waitFor();
    expect(await page.locator('table.sightings tbody tr').count()).to.equal(50);
    expect((await page.locator('table.sightings tbody td.memo').allInnerTexts()).every((memo) => memo.startsWith(word)))
      .to.equal(true);
    // No request per row: the page and which of its rows are bob's, nothing else.
    const perRow = bob.watch.requests.filter((url) => /\/api\/sighting\/\d+$/.test(url));
    expect(perRow).to.deep.equal([]);
    expect(await axeViolations(page)).to.deep.equal([]);

    // The search is a filter beside the others: only bob's own among them is none.
    await page.getByLabel('Only my sightings').check();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No sighting matches.').waitFor();
    expect(new URL(page.url()).hash).to.equal(`#search?${new URLSearchParams({ q: word.slice(2), mine: 'true' })}`);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });

  it('when bob sorts a vessel\'s sightings by the time zone header, ' +
    'then the order is in the address and survives a reload', async function () {
    const vesselId = await createVessel(suite.service);
    const zones = ['Europe/Berlin', 'America/Lima', 'Asia/Tokyo'];
    const ids = [];
    for (const sightingTimezone of zones)
      ids.push(await createSighting(suite.service, buildSighting({ vessel: { vesselId }, sightingTimezone }), 'bob'));
    bob ??= await suite.signIn('bob');
    const page = bob.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('1–3 of 3', { exact: true }).waitFor();
    expect(await shownIds(page)).to.deep.equal(ids.toReversed());
    await page.getByRole('columnheader', { name: /Time zone/ }).getByRole('button').click();
    await page.waitForURL((url) => url.hash === `#vessel/${vesselId}?sort=sightingTimezone`);
    await page.getByRole('columnheader', { name: /Time zone/ }).and(page.locator('[aria-sort="ascending"]')).waitFor();
    expect(await shownIds(page)).to.deep.equal([ids[1], ids[2], ids[0]]);
    await page.reload();
    await page.getByRole('columnheader', { name: /Time zone/ }).and(page.locator('[aria-sort="ascending"]')).waitFor();
    expect(await shownIds(page)).to.deep.equal([ids[1], ids[2], ids[0]]);
    // A second click turns the order round.
    await page.getByRole('columnheader', { name: /Time zone/ }).getByRole('button').click();
    await page.locator('th[aria-sort="descending"]').waitFor();
    expect(await shownIds(page)).to.deep.equal([ids[0], ids[2], ids[1]]);
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}?sort=-sightingTimezone`);
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });

  it('when a sighting was edited twice, ' +
    'then its page shows its fields and 3 versions, each viewable, and Back returns to the list', async function () {
    const vesselId = await createVessel(suite.service);
    const id =
      await createSighting(suite.service, buildSighting({ vessel: { vesselId }, sightingMemo: 'first' }), 'bob');
    const api = await apiClient(suite.service, { user: 'bob' });
    const patch = (version: number, body: Record<string, unknown>) =>
      api.PATCH('/sighting/{id}', { params: { path: { id }, header: { 'If-Match': `"${version}"` } },
        body: body as never, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect((await patch(0, { sightingMemo: 'second' })).response.status).to.equal(204);
    expect((await patch(1, { sightingTimezone: 'Europe/Berlin' })).response.status).to.equal(204);
    bob ??= await suite.signIn('bob');
    const page = bob.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}?sort=sightingDate`);
    await page.getByText('1–1 of 1', { exact: true }).waitFor();
    await page.locator(`tr[data-sighting-id="${id}"] a`).first().click();
    await page.getByRole('heading', { name: `Sighting #${id}` }).waitFor();
    const history = page.getByRole('table', { name: 'History' });
    expect(await history.locator('tbody tr').count()).to.equal(3);
    expect(await history.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')]
      .filter((_, i) => i !== 2).map((cell) => (cell as unknown as { innerText: string }).innerText))))
      .to.deep.equal([['Version 2', 'changed', 'Time zone'], ['Version 1', 'changed', 'Memo'],
        ['Version 0', 'recorded', '']]);
    expect(await page.locator('dl.record dd').allInnerTexts()).to.include.members(['second', 'Europe/Berlin']);
    expect(await axeViolations(page)).to.deep.equal([]);
    await history.getByRole('link', { name: 'Version 0' }).click();
    await page.getByText('You are looking at version 0.').waitFor();
    expect(await page.locator('dl.record dd').allInnerTexts()).to.include('first');
    // Back (the page's link) twice: the version, then the list it came from with its order.
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await page.getByText('You are looking at version 0.').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await page.getByText('1–1 of 1', { exact: true }).waitFor();
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}?sort=sightingDate`);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });

  it('when an administrator deletes bob\'s sighting and undoes it, ' +
    'then it stays; the admin sees who changed it in its history', async function () {
    const vesselId = await createVessel(suite.service);
    const id = await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'bob');
    const admin = await suite.signIn('admin');
    const page = admin.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    const row = page.locator(`tr[data-sighting-id="${id}"]`);
    await row.waitFor();
    // Not the admin's own: no "yours", but edit and delete (moderation).
    expect(await row.locator('.badge').count()).to.equal(0);
    await page.getByRole('button', { name: `Delete #${id}` }).click();
    await row.waitFor({ state: 'hidden' });
    await page.locator('tr.deleting').getByRole('button', { name: 'Undo' }).click();
    await row.waitFor();
    await page.locator('.undo', { hasText: `Sighting #${id} is kept.` }).waitFor();
    const kept =
      await (await apiClient(suite.service, { user: 'bob' })).GET('/sighting/{id}', { params: { path: { id } } });
    expect(kept.response.status).to.equal(200);
    await page.goto(`${suite.service.url}/#sighting/${id}`);
    const history = page.getByRole('table', { name: 'History' });
    await history.waitFor();
    expect(await history.locator('tbody tr td').nth(3).innerText()).to.equal('bob');
    expect(unexpectedProblems(admin.watch)).to.deep.equal([]);
  });
});
