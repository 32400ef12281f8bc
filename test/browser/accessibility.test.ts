// axe-core on every screen of the web page and on the realm's login page: no violation of its WCAG 2.x A/AA rules,
// in English and German, on a desktop window and on a phone.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { axeViolations as violations } from '../support/axe.ts';
import { buildSighting, createSighting, unique } from '../support/fixtures.ts';
import { browserSuite, pauseClock, type Person, type PersonOptions } from '../support/web-page.ts';

/** Goes to `route` and waits until the screen's heading is there and nothing is loading. */
async function screen(page: Page, route: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${new URL(page.url()).origin}/${route}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.locator('main[aria-busy]').waitFor({ state: 'detached' });
}

describe('web page: accessibility (axe-core)', () => {
  const suite = browserSuite();

  for (const [label, options] of [['desktop, English', {}],
    ['phone, German', { locale: 'de-DE', viewport: { width: 390, height: 844 } }]] as [string, PersonOptions][]) {
    it(`when each screen is shown (${label}), then axe finds no violation, the login page included`, async function () {
      // A sighting of its own: a delete that went through in one test leaves the other its row to delete.
      const ownSighting = await createSighting(suite.service,
        buildSighting({ vessel: { vesselId: -1 }, sightingMemo: unique('axe') }), 'admin');
      const found: Record<string, string[]> = {};
      const german = options.locale === 'de-DE';
      const person: Person = await suite.signIn('admin',
        { ...options, onLoginPage: async (page) => { found.login = await violations(page); } });
      const page = person.page;
      const screens: [string, string, RegExp][] = [
        ['mine', '#mine', german ? /Meine Sichtungen/ : /My sightings/],
        ['record', '#record', german ? /Sichtung erfassen/ : /Record a sighting/],
        ['vessels', '#vessel', german ? /Sichtungen nach Schiff/ : /Sightings by vessel/],
        ['vessel', '#vessel/-1', german ? /Sichtungen nach Schiff/ : /Sightings by vessel/],
        ['search', `#search?q=${encodeURIComponent('e')}`, german ? /Sichtungen suchen/ : /Search sightings/],
        ['edit', `#edit/${ownSighting}`, new RegExp(`#${ownSighting}`)],
        ['admin', '#admin', /.+/],
        ['admin vessel', '#admin/-1', /.+/],
      ];
      for (const [name, route, heading] of screens) {
        await screen(page, route, heading);
        found[name] = await violations(page);
      }
      // States within screens: a form's errors, the undo notice after a delete.
      await screen(page, '#record', german ? /Sichtung erfassen/ : /Record a sighting/);
      await page.locator('form.sighting-form button[type="submit"]').click();
      await page.locator('.field-error:not([hidden])').first().waitFor();
      found['record with errors'] = await violations(page);
      await screen(page, '#vessel/-1', german ? /Sichtungen nach Schiff/ : /Sightings by vessel/);
      // The undo window (6 s) waits for axe: on a loaded machine axe alone took longer, and the row was gone.
      await pauseClock(page);
      await page.locator(`tr[data-sighting-id="${ownSighting}"] button.danger`).click();
      await page.locator('tr.deleting button').waitFor();
      found['delete with undo'] = await violations(page, [], { clockPaused: true });
      await page.locator('tr.deleting button').click();
      await page.locator(`tr[data-sighting-id="${ownSighting}"]`).waitFor();
      await page.clock.resume();
      await page.getByRole('button', { name: german ? 'Abmelden' : 'Sign out' }).click();
      await page.locator('main').getByRole('button', { name: german ? 'Anmelden' : 'Sign in' }).waitFor();
      found['signed out'] = await violations(page);
      // The check can fail: an input without a label is found.
      await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('input'), ` +
        `{ id: 'unlabelled' }))`);
      expect((await violations(page)).join('\n')).to.match(/^label: #unlabelled$/m);

      expect(Object.keys(found)).to.have.length(screens.length + 4);
      expect(Object.entries(found).filter(([, list]) => list.length)).to.deep.equal([]);
    });
  }
});
