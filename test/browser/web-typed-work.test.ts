// Typed work is never dropped: a create that cannot reach the registry keeps the form and says so, with Try again
// (recording once); a screen with unsaved changes asks, in the page's own words, before Mine, Back or a reload.
import { expect } from 'chai';
import type { Dialog, Page, Route } from 'playwright-core';
import { apiClient } from '../support/api-client.ts';
import { axeViolations } from '../support/axe.ts';
import { eventually } from '../support/condition.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import { browserSuite, openScreen, unexpectedProblems } from '../support/web-page.ts';

describe('web page: typed work is never dropped', () => {
  const suite = browserSuite();

  /** The next dialog the page opens, answered `accept` or not; its type and words. */
  const nextDialog = (page: Page, accept: boolean) => new Promise<{ type: string; message: string }>((resolve) => {
    page.once('dialog', (dialog: Dialog) => {
      resolve({ type: dialog.type(), message: dialog.message() });
      void (accept ? dialog.accept() : dialog.dismiss());
    });
  });

  it('when alice records a sighting offline, ' +
    'then the page says so and keeps the form; back online, Try again records it once', async function () {
    const vesselId = await createVessel(suite.service);
    const memo = unique('offline');
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await openScreen(page, 'Record', 'Record a sighting');
    await page.getByLabel('Vessel').selectOption(String(vesselId));
    await page.getByLabel('Memo').fill(memo);

    await alice.context.setOffline(true);
    await page.getByRole('button', { name: 'Record sighting' }).click();
    const general = page.locator('form.sighting-form .form-error');
    await general.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await general.locator('p').innerText()).to.equal('The sighting registry could not be reached, so nothing ' +
      'was saved; your entries are kept. Check your connection, then try again.');
    expect([new URL(page.url()).hash, await page.getByLabel('Memo').inputValue(),
      await page.getByLabel('Vessel').inputValue()]).to.deep.equal(['#record', memo, String(vesselId)]);
    expect(await axeViolations(page)).to.deep.equal([]);

    await alice.context.setOffline(false);
    await general.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL((url) => url.hash === `#vessel/${vesselId}`);
    const api = await apiClient(suite.service, { user: 'alice' });
    const { data } = await api.GET('/sighting', { params: { query: { vesselId } } });
    expect(data?.length, 'sightings of the vessel').to.equal(1);
    const recorded = await api.GET('/sighting/{id}', { params: { path: { id: data![0]!.sightingId } } });
    expect(recorded.data?.sightingMemo).to.equal(memo);
    expect(unexpectedProblems(alice.watch, [/ERR_INTERNET_DISCONNECTED/, /Failed to fetch/])).to.deep.equal([]);
  });

  it('when alice has typed a new memo on the edit screen, ' +
    'then Mine, Back and a reload ask first, and staying keeps the memo', async function () {
    const vesselId = await createVessel(suite.service);
    const id = await createSighting(suite.service, buildSighting({ vessel: { vesselId } }));
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#sighting/${id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    const memo = page.getByLabel('Memo');
    await memo.waitFor();
    // Untouched, the form is left without a question.
    await openScreen(page, 'Mine', 'My sightings');
    await page.goBack();
    await memo.fill('new words');

    const asked = nextDialog(page, false);
    await page.getByRole('navigation').getByRole('link', { name: 'Mine', exact: true }).click();
    expect(await asked).to.deep.equal({ type: 'confirm',
      message: 'Your changes on this screen are not saved yet. Leave it and lose them?' });
    expect([new URL(page.url()).hash, await memo.inputValue()]).to.deep.equal([`#edit/${id}`, 'new words']);

    const askedOnBack = nextDialog(page, false);
    await page.goBack();
    expect((await askedOnBack).type).to.equal('confirm');
    await page.waitForURL((url) => url.hash === `#edit/${id}`);
    expect(await memo.inputValue()).to.equal('new words');

    // A reload is the browser's to word; refused, the page and its memo stay.
    const askedOnReload = nextDialog(page, false);
    void page.reload().catch(() => undefined);
    expect((await askedOnReload).type).to.equal('beforeunload');
    expect(await memo.inputValue()).to.equal('new words');

    const leaving = nextDialog(page, true);
    await page.getByRole('navigation').getByRole('link', { name: 'Mine', exact: true }).click();
    await leaving;
    await page.getByRole('heading', { level: 1, name: 'My sightings' }).waitFor();
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when a German reader leaves an edit with unsaved changes, then the question is in German', async function () {
    const vesselId = await createVessel(suite.service);
    const id = await createSighting(suite.service, buildSighting({ vessel: { vesselId } }));
    const person = await suite.signIn('alice', { locale: 'de-DE' });
    const page = person.page;
    await page.goto(`${suite.service.url}/#edit/${id}`);
    await page.getByLabel('Memo').fill('neue Worte');
    const asked = nextDialog(page, false);
    await page.getByRole('navigation').getByRole('link', { name: 'Meine', exact: true }).click();
    expect((await asked).message).to.equal('Ihre Änderungen auf dieser Seite sind noch nicht gespeichert. ' +
      'Die Seite verlassen und die Änderungen verwerfen?');
    expect(unexpectedProblems(person.watch)).to.deep.equal([]);
  });

  it('when alice leaves a screen still loading for the form to record, and the left screen then fails, ' +
    'then the form is not drawn again and her memo stays', async function () {
    const memo = unique('typed');
    const alice = await suite.signIn('alice');
    const page = alice.page;
    // The page's timers on a clock the test moves: the failure's automatic retry is due at once, not in seconds.
    await page.clock.install();
    const list = /\/api\/sighting\/detail-view\?/;
    let held: Route | undefined;
    await page.route(list, (route) => { held = route; });
    await page.goto(`${suite.service.url}/#mine`);
    await eventually(() => held, { what: 'the list of My sightings asked for' });
    await page.getByRole('navigation').getByRole('link', { name: 'Record', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Record a sighting' }).waitFor();
    await page.getByLabel('Memo').fill(memo);

    const answered = page.waitForEvent('requestfinished', (request) => list.test(request.url()));
    await held!.fulfill({ status: 503, json: { code: 'serviceUnavailable', message: 'Try again later.' } });
    await answered;
    // A few turns of the page's tasks: the answer's body read and the left screen's failure drawn (off screen).
    for (let turn = 0; turn < 3; turn++) {
      await page.evaluate(`new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        channel.port2.postMessage(null);
      })`);
    }
    await page.clock.runFor(60_000);
    const failures = await page.getByRole('heading', { name: 'This could not be shown' }).count();
    expect([new URL(page.url()).hash, await page.getByLabel('Memo').inputValue(), failures])
      .to.deep.equal(['#record', memo, 0]);
    expect(unexpectedProblems(alice.watch, [/503/])).to.deep.equal([]);
  });
});
