// Connection state visible and recoverable: a screen that could not be read says so with a heading and Try again,
// and shows itself once the network is back; the live list says when its connection is lost and catches up; numbers
// that could not be asked for are asked again; a 401 on the live list ends the session visibly, and signing in
// again comes back to the same screen.
import { expect } from 'chai';
import { axeViolations } from '../support/axe.ts';
import { eventually } from '../support/condition.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems } from '../support/web-page.ts';

const events = /\/api\/sighting\/events\?/;

describe('web page: connection lost and back', () => {
  const suite = browserSuite();

  it('when the network is gone as alice opens a screen, ' +
    'then an error screen with a heading and Try again; back online, the screen shows by itself', async function () {
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.getByRole('heading', { name: 'My sightings' }).waitFor();
    await alice.context.setOffline(true);
    await page.getByRole('navigation').getByRole('link', { name: 'By vessel', exact: true }).click();
    const failure = page.getByRole('heading', { level: 1, name: 'This could not be shown' });
    await failure.waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'could not be reached' }).count()).to.equal(1);
    expect(await page.evaluate('document.activeElement?.textContent')).to.equal('This could not be shown');
    expect(await axeViolations(page)).to.deep.equal([]);
    // Try again while still offline: the same screen again, nothing worse.
    await page.getByRole('button', { name: 'Try again' }).click();
    await failure.waitFor();

    await alice.context.setOffline(false);
    // Nobody clicks: the page tries again when the browser is back online.
    await page.getByRole('heading', { level: 1, name: 'Sightings by vessel' }).waitFor();
    expect(await failure.count()).to.equal(0);
    expect(unexpectedProblems(alice.watch, [/ERR_INTERNET_DISCONNECTED/, /Failed to fetch/])).to.deep.equal([]);
  });

  it('when the live list cannot reach the change feed, ' +
    'then it says so; once it can, the note goes and the numbers catch up', async function () {
    const vesselId = await createVessel(suite.service);
    await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'bob');
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.route(events, (route) => route.abort());
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    const lost = page.getByText('Live updates are paused: the connection was lost. Reconnecting…');
    await lost.waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'bob');

    await page.unroute(events);
    await lost.waitFor({ state: 'hidden' });
    await page.getByText('Sightings of this vessel: 2, people who sighted it: 1, yours: 0').waitFor();
    expect(unexpectedProblems(alice.watch, [/sighting\/events\?.*ERR_FAILED/, /ERR_FAILED.*sighting\/events\?/]))
      .to.deep.equal([]);
  });

  it('when a sighting is recorded the moment the numbers show, ' +
    'then it is announced: the live list opens before the list and the numbers are read', async function () {
    const vesselId = await createVessel(suite.service);
    const alice = await suite.signIn('alice');
    const page = alice.page;
    const summary = page.getByTestId('vessel-summary');
    let shownBeforeFeed: number | undefined;
    // The feed's request goes out while the screen still waits for it: nothing of the screen read yet.
    await page.route(events, async (route) => {
      shownBeforeFeed ??= await summary.count();
      return route.continue();
    });
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('Sightings of this vessel: 0, people who sighted it: 0, yours: 0').waitFor();
    expect(shownBeforeFeed).to.equal(0);
    await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'bob');
    await page.getByRole('button', { name: '1 new — show' }).waitFor();
    await page.getByText('Sightings of this vessel: 1, people who sighted it: 1, yours: 0').waitFor();
  });

  it('when the numbers could not be asked for after a change, ' +
    'then they are asked again until they come', async function () {
    const vesselId = await createVessel(suite.service);
    await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'bob');
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('Sightings of this vessel: 1, people who sighted it: 1, yours: 0').waitFor();
    const observers = /\/api\/vessel\/-?\d+\/observers$/;
    let refused = 0;
    await page.route(observers, (route) => { refused += 1; return route.abort(); });
    await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'bob');
    // The change arrives and its request for the numbers fails; then the network lets it through again.
    await page.getByRole('button', { name: '1 new — show' }).waitFor();
    await eventually(() => refused > 0);
    await page.unroute(observers);
    await page.getByText('Sightings of this vessel: 2, people who sighted it: 1, yours: 0')
      .waitFor();
    expect(unexpectedProblems(alice.watch, [/observers.*ERR_FAILED/, /ERR_FAILED.*observers/])).to.deep.equal([]);
  });

  it('when the live list is answered 401 and the token cannot be refreshed, ' +
    'then the session ends visibly; signing in again returns to the same screen', async function () {
    const vesselId = await createVessel(suite.service);
    const alice = await suite.signIn('alice');
    const page = alice.page;
    const feedCalls: string[] = [];
    await page.route(events, (route) => {
      feedCalls.push(route.request().headers().authorization ?? '');
      return route.fulfill({ status: 401, contentType: 'application/json',
        body: '{"general":"The token is not valid."}' });
    });
    await page.route(/\/protocol\/openid-connect\/token$/,
      (route) => route.request().postData()?.includes('grant_type=refresh_token')
        ? route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"invalid_grant"}' })
        : route.continue());
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByRole('status').filter({ hasText: 'Your session has ended; please sign in again.' }).waitFor();
    const signIn = page.locator('main').getByRole('button', { name: 'Sign in' });
    await signIn.waitFor();
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}`);
    // Once with the rejected token, never again after the refresh was refused.
    expect(feedCalls).to.have.length(1);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.unrouteAll();
    await signIn.click();
    // The provider may still know her (then no password is asked).
    const back = page.getByRole('heading', { level: 1, name: 'Sightings by vessel' });
    const login = page.getByLabel(/username/i);
    await Promise.race([back.waitFor(), login.waitFor()]);
    if (await login.count()) {
      await login.fill('alice');
      await page.getByLabel(/^\s*password\s*$/i).fill('alice');
      await page.getByRole('button', { name: /^\s*sign in\s*$/i }).click();
    }
    await back.waitFor();
    expect(new URL(page.url()).hash).to.equal(`#vessel/${vesselId}`);
    expect(unexpectedProblems(alice.watch,
      [/HTTP 401: GET .*sighting\/events/, /status of 40[01]/, /HTTP 400: POST .*\/token$/])).to.deep.equal([]);
  });
});
