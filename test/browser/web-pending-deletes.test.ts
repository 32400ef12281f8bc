// Pending deletes follow the person: the page's one notice lists each with its countdown and Undo on every screen,
// a list shown again while one is pending shows its row as pending, and no screen pulls the person back when a
// delete it asked for is sent.
import { expect } from 'chai';
import { apiClient } from '../support/api-client.ts';
import { axeViolations } from '../support/axe.ts';
import { eventually } from '../support/condition.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import {
  browserSuite, openScreen, pauseClock, unexpectedProblems, vesselWithThreeSightings,
} from '../support/web-page.ts';

describe('web page: pending deletes follow the person', () => {
  const suite = browserSuite();

  const statusOf = async (path: '/sighting/{id}' | '/vessel/{id}', id: number) =>
    (await (await apiClient(suite.service, { user: 'alice' })).GET(path, { params: { path: { id } } })).response.status;

  it('when alice deletes a sighting and opens Search within the window, ' +
    'then the page\'s notice offers its Undo there, by keyboard, and it takes the delete back', async function () {
    const vesselId = await createVessel(suite.service);
    const control = unique('control');
    const target = await createSighting(suite.service, buildSighting({ vessel: { vesselId } }));
    const later = await createSighting(suite.service, buildSighting({ vessel: { vesselId }, sightingMemo: control }));
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('1–2 of 2', { exact: true }).waitFor();
    // The delete's countdown waits for the test (a loaded machine took longer than its 6 s).
    await pauseClock(page);

    await page.getByRole('button', { name: `Delete #${target}`, exact: true }).click();
    await openScreen(page, 'Search', 'Search sightings');
    const notice = page.locator('.pending-deletes [aria-live="polite"] li');
    expect((await notice.innerText()).replace(/\s+/g, ' '))
      .to.equal(`Sighting #${target} is deleted in 6 seconds. Undo`);
    expect(await axeViolations(page, [], { clockPaused: true })).to.deep.equal([]);
    // The notice sits just before the screen: from the screen's heading, one Shift+Tab reaches its Undo.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")'))
      .to.equal(`Undo the delete of #${target}`);
    await page.keyboard.press('Enter');
    await page.locator('.undo', { hasText: `Sighting #${target} is kept.` }).waitFor();
    expect([await notice.count(), new URL(page.url()).hash]).to.deep.equal([0, '#search']);
    await page.clock.resume();

    // A delete asked for after the Undo is sent after the undone one would have been: once it is, that one was not.
    await page.getByLabel('Text in the memo').fill(control);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: `Delete #${later}`, exact: true }).click();
    await page.locator(`tr[data-sighting-id="${later}"]`).waitFor({ state: 'detached' });
    await eventually(async () => await statusOf('/sighting/{id}', later) === 404, { what: 'the later delete' });
    expect(await statusOf('/sighting/{id}', target)).to.equal(200);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when alice deletes a sighting, opens Search and goes Back, ' +
    'then the row shows as pending with its Undo, and goes when the delete is sent', async function () {
    const { ids: [a, b, c], person: alice, page } = await vesselWithThreeSightings(suite);
    await pauseClock(page);

    await page.getByRole('button', { name: `Delete #${b}`, exact: true }).click();
    await openScreen(page, 'Search', 'Search sightings');
    await page.goBack();
    const line = page.locator(`tr.deleting[data-deleting-id="${b}"]`);
    await line.waitFor();
    expect([await line.getByRole('button', { name: `Undo the delete of #${b}` }).count(),
      await page.locator(`tr[data-sighting-id="${b}"]`).isHidden()]).to.deep.equal([1, true]);
    expect(await axeViolations(page, [], { clockPaused: true })).to.deep.equal([]);
    await page.clock.resume();

    await page.locator(`tr[data-sighting-id="${b}"]`).waitFor({ state: 'detached' });
    await page.getByText('1–2 of 2', { exact: true }).waitFor();
    await page.locator('.undo', { hasText: 'The sighting is deleted.' }).waitFor();
    const shown = await page.locator('table.sightings tbody tr:not([hidden])')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
    expect([shown, await line.count()]).to.deep.equal([[c, a], 0]);
    expect(await statusOf('/sighting/{id}', b)).to.equal(404);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when an administrator deletes a vessel and then types on Search, ' +
    'then the sent delete leaves the person, the text and the focus where they are', async function () {
    const vesselId = await createVessel(suite.service);
    const admin = await suite.signIn('admin');
    const page = admin.page;
    await page.goto(`${suite.service.url}/#admin/${vesselId}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete vessel' }).click();
    await page.locator('.pending-deletes li').waitFor();

    await openScreen(page, 'Search', 'Search sightings');
    await page.getByLabel('Text in the memo').click();
    await page.keyboard.type('still typing');
    await page.locator('.undo', { hasText: 'The vessel is deleted.' }).waitFor();
    await eventually(async () => await statusOf('/vessel/{id}', vesselId) === 404, { what: 'the vessel delete' });
    expect([new URL(page.url()).hash, await page.getByLabel('Text in the memo').inputValue(),
      await page.evaluate('document.activeElement?.getAttribute("name")')])
      .to.deep.equal(['#search', 'still typing', 'q']);
    expect(unexpectedProblems(admin.watch)).to.deep.equal([]);
  });
});
