// The web page's story: alice signs in and records a sighting; bob signs in and finds it under the same vessel, with
// the counts.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { closeBrowser, launchBrowser, screenshotPath } from '../support/browser.ts';
import { sharedService, type TestService } from '../support/service.ts';
import { buildVessel, createVessel, unique } from '../support/fixtures.ts';
import { openScreen, signedIn, unexpectedProblems, vesselScreen, type Person } from '../support/web-page.ts';

describe('web page: alice records a sighting, bob sees it under the same vessel', () => {
  let browser: Browser;
  let service: TestService;
  let vesselName: string;
  let vesselId: number;
  const people: Person[] = [];

  before(async function () {
    browser = await launchBrowser(this);
    service = await sharedService();
    vesselName = unique('Enterprise');
    vesselId = await createVessel(service, buildVessel({ vesselName: { en: vesselName, de: `${vesselName} (de)` } }));
  });
  after(async () => {
    await Promise.all(people.map((person) => person.close()));
    await closeBrowser(browser);
  });

  it('when alice records a sighting, then the page shows it under its vessel with 1 sighting, 1 of them hers; ' +
    'bob sees it too, as not his', async function () {
    const alice = await signedIn(browser, service, 'alice');
    people.push(alice);
    const page = alice.page;
    // The landing screen is her own sightings; recording is one link away.
    await page.getByRole('heading', { name: 'My sightings' }).waitFor();
    await openScreen(page, 'Record', 'Record a sighting');
    // Nothing chosen for her: no vessel until she picks one, the date is now, a time zone is found by typing.
    const vessel = page.getByLabel('Vessel', { exact: true });
    expect([await vessel.inputValue(), await vessel.locator('option:checked').innerText()])
      .to.deep.equal(['', 'Choose a vessel…']);
    const minutesFromNow = await page.getByLabel('Date and time (local)', { exact: true }).evaluate((input) =>
      Math.abs(new Date((input as unknown as { value: string }).value).getTime() - Date.now()) / 60_000);
    expect(minutesFromNow).to.be.lessThan(10);
    const zone = page.getByLabel('Time zone', { exact: true });
    const offered = await zone.evaluate((input) =>
      Array.from((input as unknown as { list: { options: ArrayLike<{ value: string }> } }).list.options,
        (option) => option.value));
    expect(offered).to.include.members(['Europe/Berlin', 'Asia/Tokyo']).and.to.have.length.greaterThan(400);
    await vessel.selectOption({ label: vesselName });
    await page.getByLabel('Date and time (local)', { exact: true }).fill('2026-11-22T21:30');
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
    await page.getByLabel('Memo', { exact: true }).fill('Decloaked over the harbour');
    // The contract's bounds are on the page before anything is sent.
    expect(await page.locator('.field', { has: page.getByLabel('Memo', { exact: true }) }).locator('.hint').innerText())
      .to.equal('2 to 4000 characters. 26 / 4000');
    await page.screenshot({ path: screenshotPath('web-record'), fullPage: true });
    await page.getByRole('button', { name: 'Record sighting' }).click();

    await page.waitForURL(`${service.url}/#vessel/${vesselId}`);
    await page.getByTestId('vessel-summary').waitFor();
    expect(await page.locator('.notice').innerText()).to.equal('Your sighting is recorded.');
    const seenByAlice = await vesselScreen(page);
    expect(seenByAlice.summary).to.equal('Sightings of this vessel: 1, people who sighted it: 1, yours: 1');
    expect(seenByAlice.rows).to.have.length(1);
    // The memo too, though the list view has none: the page reads it from the detail view.
    expect(seenByAlice.rows[0]!.slice(1))
      .to.deep.equal(['Europe/Berlin', vesselName, 'Decloaked over the harbour', 'yours\nEdit\nDelete']);
    expect(seenByAlice.rows[0]![0]).to.match(/Nov 22, 2026/);
    await page.screenshot({ path: screenshotPath('web-vessel-sightings'), fullPage: true });

    const bob = await signedIn(browser, service, 'bob');
    people.push(bob);
    await openScreen(bob.page, 'By vessel', 'Sightings by vessel');
    await bob.page.getByLabel('Vessel', { exact: true }).selectOption({ label: vesselName });
    await bob.page.getByTestId('vessel-summary').waitFor();
    const seenByBob = await vesselScreen(bob.page);
    expect(seenByBob).to.deep.equal({ summary: 'Sightings of this vessel: 1, people who sighted it: 1, yours: 0',
      rows: [[seenByAlice.rows[0]![0]!, 'Europe/Berlin', vesselName, 'Decloaked over the harbour', '']] });
    expect(await bob.page.getByRole('button', { name: /Delete/ }).count()).to.equal(0);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });

  it('when bob then records his own sighting of it, ' +
    'then alice\'s open screen counts it at once and offers it as "1 new", newest first', async function () {
    const [alice, bob] = people;
    await openScreen(bob!.page, 'Record', 'Record a sighting');
    await bob!.page.getByLabel('Vessel', { exact: true }).selectOption({ label: vesselName });
    await bob!.page.getByLabel('Memo', { exact: true }).fill('Saw it too');
    await bob!.page.getByRole('button', { name: 'Record sighting' }).click();
    await bob!.page.getByText('Sightings of this vessel: 2, people who sighted it: 2, yours: 1').waitFor();
    // No reload: the change feed brings it to alice's screen, the rows stay put until she asks for the new one.
    await alice!.page.getByText('Sightings of this vessel: 2, people who sighted it: 2, yours: 1').waitFor();
    expect((await vesselScreen(alice!.page)).rows).to.have.length(1);
    await alice!.page.getByRole('button', { name: '1 new — show' }).click();
    await alice!.page.locator('table.sightings tbody tr').nth(1).waitFor();
    const rows = (await vesselScreen(alice!.page)).rows.map((row) => row.at(-1));
    expect(rows).to.deep.equal(['', 'yours\nEdit\nDelete']);
    expect(unexpectedProblems(alice!.watch)).to.deep.equal([]);
  });

  it('when the vessel\'s sightings are shown on a phone, ' +
    'then they fit the screen, the header is compact and each card names its fields', async function () {
    const phone = await signedIn(browser, service, 'alice', { viewport: { width: 390, height: 844 } });
    people.push(phone);
    const page = phone.page;
    await page.goto(`${service.url}/#vessel/${vesselId}`);
    await page.getByTestId('vessel-summary').waitFor();
    const overflow =
      await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    await page.screenshot({ path: screenshotPath('web-vessel-sightings-phone'), fullPage: true });
    expect(overflow).to.equal(0);
    expect((await page.locator('header').boundingBox())!.height).to.be.lessThan(120);
    const labels = await page.locator('table.sightings tbody tr').first().locator('td[data-label]')
      .evaluateAll((cells) =>
        cells.map((cell) => cell.ownerDocument.defaultView!.getComputedStyle(cell, '::before').content));
    expect(labels).to.deep.equal(['"Date and time (local)"', '"Time zone"', '"Vessel"', '"Memo"']);

    // The record form: the date-time picker whole, on a line of its own, inside the screen.
    await page.goto(`${service.url}/#record`);
    const date = page.getByLabel('Date and time (local)', { exact: true });
    await date.waitFor();
    const [dateBox, zoneBox] =
      [(await date.boundingBox())!, (await page.getByLabel('Time zone', { exact: true }).boundingBox())!];
    expect(dateBox.x + dateBox.width).to.be.at.most(390);
    expect(zoneBox.y).to.be.greaterThan(dateBox.y + dateBox.height);
    expect(await date.evaluate((input) => input.scrollWidth <= input.clientWidth)).to.equal(true);
    await page.screenshot({ path: screenshotPath('web-record-phone'), fullPage: true });
  });
});
