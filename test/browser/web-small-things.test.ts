// The page's smaller promises: an administrator's five menu items fit a phone, "Record a sighting" from a vessel's
// screen has that vessel chosen, the German words read as German ("Alle Tage", no bare "Ihre"), and a network
// failure reads as words for a person, never the browser's "Failed to fetch".
import { expect } from 'chai';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { browserSuite, sightingListRequest, unexpectedProblems } from '../support/web-page.ts';
import { axeViolations } from '../support/axe.ts';

describe('web page: menus, preselection and words', () => {
  const suite = browserSuite();

  it('when an administrator uses a 390 px phone, then all six menu items are on screen', async function () {
    const admin = await suite.signIn('admin', { viewport: { width: 390, height: 844 } });
    const links = admin.page.locator('header nav a');
    expect(await links.count()).to.equal(6);
    for (const link of await links.all()) {
      const box = (await link.boundingBox())!;
      expect(box.x, await link.innerText()).to.be.at.least(0);
      expect(box.x + box.width, await link.innerText()).to.be.at.most(390);
    }
    expect(unexpectedProblems(admin.watch)).to.deep.equal([]);
  });

  it('when alice follows "Record a sighting" on a vessel\'s screen, then that vessel is chosen', async function () {
    const vesselId = await createVessel(suite.service);
    const alice = await suite.signIn('alice');
    await alice.page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await alice.page.getByTestId('vessel-summary').waitFor();
    await alice.page.getByRole('main').getByRole('link', { name: 'Record a sighting' }).click();
    await alice.page.getByRole('heading', { name: 'Record a sighting' }).waitFor();
    expect(await alice.page.getByLabel('Vessel', { exact: true }).inputValue()).to.equal(String(vesselId));
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when bob reads a vessel\'s screen in German with a date range, ' +
    'then it says "Alle Tage" and "von Ihnen", and the numbers are of those dates', async function () {
    const bob = await suite.signIn('bob', { locale: 'de-DE' });
    await bob.page.goto(`${suite.service.url}/#vessel/-1?from=2000-01-01&to=2000-01-31`);
    await bob.page.getByRole('button', { name: 'Alle Tage' }).waitFor();
    expect(await bob.page.getByTestId('vessel-summary').innerText())
      .to.equal('Sichtungen dieses Schiffs in diesem Zeitraum: 0, davon von Ihnen: 0');
    expect(await bob.page.locator('main').innerText()).not.to.match(/\bIhre\b(?!\s+\w)/);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });

  it('when the registry cannot be reached for the list, ' +
    'then the person reads what to do, not "Failed to fetch"', async function () {
    const alice = await suite.signIn('alice');
    const page = alice.page;
    // The network drops the list's requests, as a lost connection would.
    await page.route((url) => sightingListRequest.test(url.href), (route) => route.abort('internetdisconnected'));
    await page.goto(`${suite.service.url}/#mine?sort=sightingDate`);
    const alert = page.getByRole('main').getByRole('alert').filter({ hasText: /\S/ });
    await alert.waitFor();
    expect(await alert.getByRole('heading').innerText()).to.equal('This could not be shown');
    expect(await alert.locator('p').first().innerText())
      .to.equal('The sighting registry could not be reached. Check your connection, then try again.');
    expect(await alert.getByRole('button', { name: 'Try again' }).count()).to.equal(1);
    expect(await page.locator('main').innerText()).not.to.match(/Failed to fetch|TypeError/);
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(unexpectedProblems(alice.watch, [/request failed: GET .*\/api\/sighting\/detail-view\?.*ERR_INTERNET_DISCONNECTED/,
      /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/])).to.deep.equal([]);
  });

  it('when alice opens the vessel administration, ' +
    'then the screen says it is not allowed, and axe finds nothing', async function () {
    const alice = await suite.signIn('alice');
    await alice.page.goto(`${suite.service.url}/#admin`);
    await alice.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await axeViolations(alice.page)).to.deep.equal([]);
  });

  it('when ten sightings of the open vessel are recorded at once, ' +
    'then the numbers are asked for a few times, not once per event', async function () {
    const vesselId = await createVessel(suite.service);
    const bob = await suite.signIn('bob');
    const page = bob.page;
    // The feed answers its headers once the stream has its place: events after that reach the page, none before.
    const feedOpen = page.waitForResponse((response) => /\/sighting\/events\?vesselId=/.test(response.url()));
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByTestId('vessel-summary').waitFor();
    await feedOpen;
    const asked = () => bob.watch.requests.filter((url) => url.endsWith(`/vessel/${vesselId}/observers`)).length;
    const before = asked();
    await Promise.all(Array.from({ length: 10 },
      () => createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'alice')));
    await page.getByText('Sightings of this vessel: 10, people who sighted it: 1, yours: 0').waitFor();
    await page.getByRole('button', { name: '10 new — show' }).waitFor();
    // Coalesced: one request per second of events at most (ten events were ten requests).
    expect(asked() - before).to.be.within(1, 5);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });
});
