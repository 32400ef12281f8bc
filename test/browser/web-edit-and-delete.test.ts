// The web page: a person edits their own sighting; a stale edit is merged three ways (nobody's change lost); a delete
// can be undone.
import { expect } from 'chai';
import type { Browser, Locator } from 'playwright-core';
import { closeBrowser, launchBrowser, screenshotPath } from '../support/browser.ts';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, buildVessel, createSighting, createVessel, unique } from '../support/fixtures.ts';
import {
  openScreen, pauseClock, signedIn, unexpectedProblems, vesselScreen, type Person,
} from '../support/web-page.ts';
import { axeViolations } from '../support/axe.ts';

// The stale save is answered 412 on purpose; the browser logs that as a console error too.
const expectedConflict =
  [/HTTP 412: PATCH .*\/api\/sighting\/\d+$/, /status of 412 \(Precondition Failed\) \(.*\/api\/sighting\/\d+\)$/];

describe('web page: edit with a conflict, then delete', () => {
  let browser: Browser;
  let service: TestService;
  let alice: Person;
  let vesselId: number;
  let sightingId: number;

  before(async function () {
    browser = await launchBrowser(this);
    service = await sharedService();
    vesselId = await createVessel(service, buildVessel());
    sightingId = await createSighting(service, buildSighting({ vessel: { vesselId }, sightingMemo: 'first words',
      sightingTimezone: 'Europe/Paris', sightingDate: '2026-11-20T08:15:00.000' }));
    alice = await signedIn(browser, service, 'alice');
  });
  after(async () => {
    await alice?.close();
    await closeBrowser(browser);
  });

  it('when alice saves her memo after someone set the time zone meanwhile, ' +
    'then the three-way merge keeps their time zone and her memo, and says so', async function () {
    const page = alice.page;
    await page.goto(`${service.url}/#vessel/${vesselId}`);
    await page.goto(`${service.url}/#edit/${sightingId}`);
    await page.getByRole('heading', { name: `Edit sighting #${sightingId}` }).waitFor();
    expect(await page.getByLabel('Memo', { exact: true }).inputValue()).to.equal('first words');
    expect(await page.getByLabel('Time zone', { exact: true }).inputValue()).to.equal('Europe/Paris');
    expect(await page.getByLabel('Date and time (local)', { exact: true }).inputValue()).to.equal('2026-11-20T08:15');

    // Meanwhile an administrator, in another tab, sets the time zone (version 0 -> 1).
    const admin = await apiClient(service, { user: 'admin' });
    const changed =
      await admin.PATCH('/sighting/{id}', { params: { path: { id: sightingId }, header: { 'If-Match': '"0"' } },
        body: { sightingTimezone: 'Asia/Tokyo' }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(changed.response.status).to.equal(204);

    await page.getByLabel('Memo', { exact: true }).fill('my own words');
    const patches: { body: unknown; ifMatch?: string }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH')
        patches.push({ body: request.postDataJSON(), ifMatch: request.headers()['if-match'] });
    });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.locator('.conflict');
    await conflict.getByTestId('kept-theirs').waitFor();
    expect((await conflict.locator('p').allInnerTexts()).slice(1)).to.deep.equal([
      'Their change is kept: Time zone: Asia/Tokyo.',
      'Your change goes on top: Memo.',
    ]);
    expect(await conflict.locator('p').first().innerText())
      .to.match(/^Someone saved this sighting in the meantime \(version 1, saved .+\)\.$/);
    // Nothing both changed: nothing to choose. The form holds the merge.
    expect(await conflict.getByRole('table').count()).to.equal(0);
    expect(await page.getByLabel('Time zone', { exact: true }).inputValue()).to.equal('Asia/Tokyo');
    expect(await page.getByLabel('Memo', { exact: true }).inputValue()).to.equal('my own words');
    expect(await conflict.evaluate((element) => element === element.ownerDocument.activeElement)).to.equal(true);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.screenshot({ path: screenshotPath('web-edit-conflict'), fullPage: true });

    await conflict.getByRole('button', { name: 'Save the merged version' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(new URL(page.url()).hash).to.equal(`#sighting/${sightingId}`);
    // Each save a merge patch of the person's own change, stated on the version it was merged onto.
    expect(patches).to.deep.equal([{ body: { sightingMemo: 'my own words' }, ifMatch: '"0"' },
      { body: { sightingMemo: 'my own words' }, ifMatch: '"1"' }]);
    const { data } = await admin.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
    expect(data).to.deep.include({ version: 2, sightingMemo: 'my own words', sightingTimezone: 'Asia/Tokyo',
      sightingDate: '2026-11-20T08:15:00.000' });
    expect(unexpectedProblems(alice.watch, expectedConflict)).to.deep.equal([]);
  });

  it('when both changed the memo, ' +
    'then both texts are shown side by side and the one she picks is saved', async function () {
    const page = alice.page;
    await page.goto(`${service.url}/#edit/${sightingId}`);
    await page.getByRole('heading', { name: `Edit sighting #${sightingId}` }).waitFor();
    const api = await apiClient(service, { user: 'alice' });
    const changed =
      await api.PATCH('/sighting/{id}', { params: { path: { id: sightingId }, header: { 'If-Match': '"2"' } },
        body: { sightingMemo: 'theirs again' }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(changed.response.status).to.equal(204);
    await page.getByLabel('Memo', { exact: true }).fill('mine again');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.locator('.conflict');
    await conflict.getByRole('table', { name: 'Changed on both sides: choose what to keep' }).waitFor();
    expect(await tableRows(conflict.getByRole('table'))).to.deep.equal([
      ['Field', 'Your change', 'Current version'],
      ['Memo', ' mine again', ' theirs again'],
    ]);
    expect(await page.getByLabel('Memo', { exact: true }).inputValue()).to.equal('mine again');
    await conflict.getByRole('radio', { name: 'theirs again' }).check();
    expect(await page.getByLabel('Memo', { exact: true }).inputValue()).to.equal('theirs again');
    expect(await axeViolations(page)).to.deep.equal([]);
    await conflict.getByRole('button', { name: 'Save the merged version' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const { data } = await api.GET('/sighting/{id}', { params: { path: { id: sightingId } } });
    // Their memo chosen: nothing left to change, so the version stays.
    expect(data).to.deep.include({ version: 3, sightingMemo: 'theirs again', sightingTimezone: 'Asia/Tokyo' });
    await page.goto(`${service.url}/#vessel/${vesselId}`);
    expect(unexpectedProblems(alice.watch, expectedConflict)).to.deep.equal([]);
  });

  it('when alice deletes her sighting and undoes it, then it stays; when she lets the delete happen, ' +
    'then it is gone and the count drops', async function () {
    const page = alice.page;
    const othersMemo = unique('stays');
    const other =
      await createSighting(service, buildSighting({ vessel: { vesselId }, sightingMemo: othersMemo }), 'bob');
    // The page is still on the vessel's list from the edit; reload it to see bob's new sighting.
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}`);
    await page.reload();
    await page.getByText('Sightings of this vessel: 2, people who sighted it: 2, yours: 1').waitFor();
    const row = page.locator(`tr[data-sighting-id="${sightingId}"]`);
    const deletes: string[] = [];
    page.on('request', (request) => { if (request.method() === 'DELETE') deletes.push(request.url()); });
    // The delete's countdown waits for the test (a loaded machine took longer than its 6 s).
    await pauseClock(page);

    await page.getByRole('button', { name: `Delete #${sightingId}` }).click();
    await row.waitFor({ state: 'hidden' });
    expect(await page.locator('tr.deleting').innerText())
      .to.equal(`Sighting #${sightingId} is deleted in 6 seconds. Undo`);
    await page.screenshot({ path: screenshotPath('web-delete-undo'), fullPage: true });
    await page.locator('tr.deleting').getByRole('button', { name: 'Undo' }).click();
    await row.waitFor();
    await page.locator('.undo', { hasText: `Sighting #${sightingId} is kept.` }).waitFor();
    const kept = await (await apiClient(service, { user: 'alice' })).GET('/sighting/{id}',
      { params: { path: { id: sightingId } } });
    expect(kept.response.status).to.equal(200);
    await page.clock.resume();

    await page.getByRole('button', { name: `Delete #${sightingId}` }).click();
    await page.getByRole('status').filter({ hasText: 'The sighting is deleted.' }).waitFor();
    // The numbers follow in place, asked again at most once a second.
    await page.getByText('Sightings of this vessel: 1, people who sighted it: 1, yours: 0').waitFor();
    const screen = await vesselScreen(page);
    expect({ summary: screen.summary, rows: screen.rows.map((row) => row.slice(1)) })
      .to.deep.equal({ summary: 'Sightings of this vessel: 1, people who sighted it: 1, yours: 0',
        rows: [['–', (await api()).vesselName, othersMemo, '']] });
    const gone = await (await apiClient(service, { user: 'alice' })).GET('/sighting/{id}',
      { params: { path: { id: sightingId } } });
    expect(gone.response.status).to.equal(404);
    expect(await page.locator(`tr[data-sighting-id="${other}"]`).count()).to.equal(1);
    // One DELETE in all: the undone one was never sent.
    expect(deletes).to.deep.equal([`${service.api}/sighting/${sightingId}`]);
    // The reload above cancels the list fetches the previous page load still had in flight: the browser's own abort.
    expect(unexpectedProblems(alice.watch, [...expectedConflict, /net::ERR_ABORTED/])).to.deep.equal([]);

    async function api() {
      const { data } = await (await apiClient(service)).GET('/vessel/{id}', { params: { path: { id: vesselId } } });
      return { vesselName: data!.vesselName.en! };
    }
  });

  it('when alice deletes a sighting and moves on to another screen before it is sent, ' +
    'then it is deleted and she stays where she went', async function () {
    const page = alice.page;
    const id =
      await createSighting(service, buildSighting({ vessel: { vesselId }, sightingMemo: unique('leaving') }), 'alice');
    await page.goto(`${service.url}/#vessel/${vesselId}`);
    await page.reload();
    await page.getByRole('button', { name: `Delete #${id}` }).click();
    const sent = page.waitForResponse((response) =>
      response.request().method() === 'DELETE' && response.url().endsWith(`/sighting/${id}`));
    await openScreen(page, 'Search', 'Search sightings');
    expect((await sent).status()).to.equal(204);
    // The answer came for a screen that is gone: it must not take her back to it. Let the page run what the answer
    // queued (its promise callbacks, then a render a navigation would start) before looking.
    for (let turn = 0; turn < 3; turn++) await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
    expect([new URL(page.url()).hash, await page.getByRole('heading', { level: 1 }).innerText()])
      .to.deep.equal(['#search', 'Search sightings']);
  });
});

/** A table's rows as cell texts, the header row first. */
function tableRows(table: Locator): Promise<string[][]> {
  return table.locator('tr').evaluateAll((rows) =>
    rows.map((row) => [...row.children].map((cell) => (cell as unknown as { innerText: string }).innerText)));
}
