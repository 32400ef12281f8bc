// Lists people can steer: the order said in words (the default too), every order the contract allows to pick, the
// way back to the default, a page size on a long list; an unknown address says so and leads home.
import { expect } from 'chai';
import { axeViolations } from '../support/axe.ts';
import { vesselWithSightings } from '../support/vessel-sightings.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems } from '../support/web-page.ts';

describe('web page: lists people can steer', () => {
  const suite = browserSuite();

  it('when alice opens Mine, then its order is said; ' +
    'picking the time zone order sorts by it, and the default is one click away', async function () {
    const vesselId = await createVessel(suite.service);
    // Both early in the zones' order, whatever other sightings alice has in the shared service: on the first page.
    const later = await createSighting(suite.service,
      buildSighting({ vessel: { vesselId }, sightingTimezone: 'Africa/Accra' }));
    const alpha = await createSighting(suite.service,
      buildSighting({ vessel: { vesselId }, sightingTimezone: 'Africa/Abidjan' }));
    const alice = await suite.signIn('alice');
    const page = alice.page;
    const order = page.getByTestId('list-order');
    expect(await order.innerText()).to.equal('Order: newest recorded first (the default).');
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.getByLabel('Order', { exact: true }).selectOption('sightingTimezone');
    await page.waitForURL((url) => url.hash === '#mine?sort=sightingTimezone');
    await order.filter({ hasText: 'Order: time zone, A to Z.' }).waitFor();
    expect(await page.getByRole('columnheader', { name: /Time zone/ }).getAttribute('aria-sort')).to.equal('ascending');
    const ids = await page.locator('table.sightings tbody tr[data-sighting-id]')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
    expect(ids.indexOf(alpha)).to.be.within(0, ids.indexOf(later) - 1);

    await page.getByRole('button', { name: 'Back to the default order' }).click();
    await page.waitForURL((url) => url.hash === '#mine');
    await order.filter({ hasText: 'Order: newest recorded first (the default).' }).waitFor();
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when alice clicks the Vessel column header on Mine, then her sightings go by vessel name, A to Z, ' +
    'and a second click turns the order round', async function () {
    // A day of their own: the list shows these two, whatever else alice has recorded.
    const day = `${1900 + Math.floor(Math.random() * 100)}-03-${String(1 + Math.floor(Math.random() * 28))
      .padStart(2, '0')}`;
    const sighting = async (name: string) => createSighting(suite.service, buildSighting({ sightingDate: `${day}T12:00`,
      vessel: { vesselId: await createVessel(suite.service, { vesselName: { en: unique(name) } }) } }));
    const zulu = await sighting('Zz last vessel');
    const alpha = await sighting('Aa first vessel');
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#mine?from=${day}&to=${day}`);
    await page.getByTestId('list-order').filter({ hasText: 'Order: date and time, earliest first (the default).' })
      .waitFor();
    const shownIds = () => page.locator('table.sightings tbody tr[data-sighting-id]')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
    await page.getByRole('columnheader', { name: /Vessel/ }).getByRole('button').click();
    await page.waitForURL((url) => url.hash === `#mine?from=${day}&to=${day}&sort=vesselName`);
    await page.getByTestId('list-order').filter({ hasText: 'Order: vessel, A to Z.' }).waitFor();
    expect(await page.getByRole('columnheader', { name: /Vessel/ }).getAttribute('aria-sort')).to.equal('ascending');
    expect(await shownIds()).to.deep.equal([alpha, zulu]);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.getByRole('columnheader', { name: /Vessel/ }).getByRole('button').click();
    await page.waitForURL((url) => url.hash === `#mine?from=${day}&to=${day}&sort=-vesselName`);
    await page.getByTestId('list-order').filter({ hasText: 'Order: vessel, Z to A.' }).waitFor();
    expect(await shownIds()).to.deep.equal([zulu, alpha]);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });

  it('when a vessel has 5,000 sightings and bob picks 100 rows per page, ' +
    'then a page is 100 rows of 5,000, a jump to page 30 and to the last page shows those rows', async function () {
    const { vesselId, first: seed } = await vesselWithSightings(suite.service, 5_000, { user: 'bob' });
    const bob = await suite.signIn('bob');
    const page = bob.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('1–50 of 5,000', { exact: true }).waitFor();

    await page.getByLabel('Rows per page').selectOption('100');
    await page.getByText('1–100 of 5,000', { exact: true }).waitFor();
    expect([new URL(page.url()).hash, await page.locator('table.sightings tbody tr[data-sighting-id]').count()])
      .to.deep.equal([`#vessel/${vesselId}?size=100`, 100]);
    const shownIds = () => page.locator('table.sightings tbody tr[data-sighting-id]')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sighting-id'))));
    const [newest] = await shownIds();
    await page.getByRole('button', { name: 'Show older sightings' }).click();
    await page.getByText('1–200 of 5,000', { exact: true }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);

    // A jump to page 30 passes over 2,900 rows without showing them: its first row is the 2,901st newest.
    await page.getByLabel('Page (of 50)').fill('30');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByText('2,901–3,000 of 5,000', { exact: true }).waitFor();
    expect([new URL(page.url()).hash, (await shownIds())[0]])
      .to.deep.equal([`#vessel/${vesselId}?size=100&page=30`, newest! - 2_900]);
    await page.getByRole('button', { name: 'Last page' }).click();
    await page.getByText('4,901–5,000 of 5,000', { exact: true }).waitFor();
    expect((await shownIds()).at(-1)).to.equal(seed);
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(unexpectedProblems(bob.watch)).to.deep.equal([]);
  });

  it('when alice opens an address the page has no screen for, then it says so and leads home', async function () {
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#nonsense/abc`);
    await page.getByRole('heading', { level: 1, name: 'This address does not exist' }).waitFor();
    expect(await page.locator('main').innerText()).to.contain('The page has no screen at #nonsense/abc.');
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.getByRole('link', { name: 'Go to my sightings' }).click();
    await page.getByRole('heading', { level: 1, name: 'My sightings' }).waitFor();
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });
});
