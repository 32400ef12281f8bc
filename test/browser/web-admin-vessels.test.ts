// The web page for admins: create a vessel with names per language, add and drop a language, a 409 while sighted,
// delete.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { closeBrowser, launchBrowser, screenshotPath } from '../support/browser.ts';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, createSighting, unique } from '../support/fixtures.ts';
import {
  openScreen, pauseClock, signedIn, toNextScreen, unexpectedProblems, type Person,
} from '../support/web-page.ts';
import { axeViolations } from '../support/axe.ts';

describe('web page: admin manages vessels', () => {
  let browser: Browser;
  let service: TestService;
  const people: Person[] = [];

  before(async function () {
    browser = await launchBrowser(this);
    service = await sharedService();
  });
  after(async () => {
    await Promise.all(people.map((person) => person.close()));
    await closeBrowser(browser);
  });

  const vessel = async (id: number) =>
    (await (await apiClient(service)).GET('/vessel/{id}', { params: { path: { id } } }));

  it('when admin creates a vessel, an empty name gets its message by the field; ' +
    'then names are added, dropped, and the vessel deleted once unsighted', async function () {
    const admin = await signedIn(browser, service, 'admin');
    people.push(admin);
    const page = admin.page;
    await openScreen(page, 'Vessels', 'Manage vessels');
    // The form renders after the click; evaluateAll would not wait for it.
    await toNextScreen(page, () => page.getByRole('link', { name: 'New vessel' }).click());
    await page.getByRole('heading', { name: 'New vessel', level: 2 }).waitFor();
    const name = unique('Nostromo');
    const nameInputs = page.locator('.name-row input[name="name"]');
    expect(await page.locator('.name-row input[name="language"]')
      .evaluateAll((inputs) => inputs.map((input) => (input as { value: string }).value))).to.deep.equal(['en', 'de']);
    await nameInputs.nth(0).fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    const deError = page.locator('.name-row').nth(1).locator('.field-error').nth(1);
    await deError.waitFor();
    expect(await deError.innerText()).to.equal('A name must not be empty.');
    expect(await nameInputs.nth(1).getAttribute('aria-invalid')).to.equal('true');

    await nameInputs.nth(1).fill(`${name} (de)`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const id = Number(/#admin\/(\d+)$/.exec(page.url())?.[1]);
    expect((await vessel(id)).data)
      .to.deep.equal({ version: 0, vesselId: id, vesselName: { en: name, de: `${name} (de)` } });

    await page.getByRole('button', { name: 'Add a language' }).click();
    await page.locator('.name-row input[name="language"]').nth(2).fill('fr');
    await nameInputs.nth(2).fill(`${name} (fr)`);
    await page.getByRole('button', { name: 'Remove the name in de' }).click();
    await page.screenshot({ path: screenshotPath('web-admin-vessels'), fullPage: true });
    // "Saved." from the first save is still on screen: wait for this save's answer instead.
    const saved = page.waitForResponse((response) =>
      response.request().method() === 'PUT' && response.url() === `${service.api}/vessel/${id}`);
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).to.equal(204);
    expect((await vessel(id)).data)
      .to.deep.equal({ version: 1, vesselId: id, vesselName: { en: name, fr: `${name} (fr)` } });

    const sighting = await createSighting(service, buildSighting({ vessel: { vesselId: id } }));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const general = page.locator('.vessel-form .form-error');
    await general.waitFor();
    expect(await general.innerText())
      .to.equal('The record is still referenced by other records and cannot be deleted.');
    expect((await vessel(id)).response.status).to.equal(200);

    expect((await (await apiClient(service)).DELETE('/sighting/{id}',
      { params: { path: { id: sighting } } })).response.status).to.equal(204);
    // A delete asks first: nothing happens until it is confirmed; Cancel keeps the vessel.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    expect(await confirm.locator('p').innerText()).to.equal(`Delete the vessel ${name}?`);
    expect(await axeViolations(page)).to.deep.equal([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await vessel(id)).response.status).to.equal(200);
    // Confirmed, it can still be undone for a few seconds; nothing is sent meanwhile. The countdown waits for the test.
    await pauseClock(page);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete vessel' }).click();
    const pending = page.locator('.pending-deletes li', { hasText: `The vessel ${name} is deleted in ` });
    await pending.waitFor();
    // The Undo of the page's notice has the focus: Enter takes the delete back.
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")'))
      .to.equal(`Undo the delete of the vessel ${name}`);
    await page.keyboard.press('Enter');
    await page.locator('.undo', { hasText: `The vessel ${name} is kept.` }).waitFor();
    expect((await vessel(id)).response.status).to.equal(200);
    await page.clock.resume();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete vessel' }).click();
    await page.getByRole('status').filter({ hasText: 'The vessel is deleted.' }).waitFor();
    expect((await vessel(id)).response.status).to.equal(404);
    expect(await page.locator('.vessel-list').innerText()).not.to.contain(name);
    expect(unexpectedProblems(admin.watch, [/HTTP 400: POST .*\/api\/vessel$/, /HTTP 409: DELETE .*\/api\/vessel\/\d+$/,
      /status of (400|409)/])).to.deep.equal([]);
  });

  it('when alice (no admin) uses the page, ' +
    'then it offers no vessel management, even at its address', async function () {
    const alice = await signedIn(browser, service, 'alice');
    people.push(alice);
    expect(await alice.page.locator('header nav a').allInnerTexts())
      .to.deep.equal(['Mine', 'Record', 'By vessel', 'Search', 'Import']);
    await alice.page.goto(`${service.url}/#admin`);
    // Said plainly, not another screen in its place.
    await alice.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await alice.page.getByRole('note').innerText()).to.equal('Managing vessels needs the admin role.');
    expect(await alice.page.getByRole('heading', { name: 'Manage vessels' }).count()).to.equal(0);
  });
});
