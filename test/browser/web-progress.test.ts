// Progress a person can see and hear: every screen's slow load says "Loading…" in a status line (the API held back
// by the test until it has looked), "Show older sightings" says what it loads, and a delete's countdown counts.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { axeViolations } from '../support/axe.ts';
import { vesselWithSightings } from '../support/vessel-sightings.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems } from '../support/web-page.ts';

describe('web page: progress you can see and hear', () => {
  const suite = browserSuite();

  /** Holds every API request of `page` until the returned function is called (a gate, not a delay). */
  async function holdApi(page: Page): Promise<() => Promise<void>> {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    const pattern = new RegExp(`^${suite.service.api}/`);
    await page.route(pattern, async (route) => {
      await gate;
      await route.fallback();
    });
    return async () => {
      open();
      await page.unroute(pattern);
    };
  }

  for (const [language, loading] of [['en', 'Loading…'], ['de', 'Wird geladen …']] as const) {
    it(`when each screen loads slowly (${language}), then its status line says "${loading}" with role=status, ` +
      'and axe finds no violation', async function () {
      const vesselId = await createVessel(suite.service);
      const id = await createSighting(suite.service, buildSighting({ vessel: { vesselId } }));
      const alice = await suite.signIn('alice', { language,
        ...(language === 'de' && { viewport: { width: 390, height: 844 } }) });
      const page = alice.page;
      for (const route of ['#mine', '#record', '#vessel', `#vessel/${vesselId}`, '#search?q=', `#sighting/${id}`,
        `#edit/${id}`]) {
        const release = await holdApi(page);
        await page.evaluate(`location.hash = ${JSON.stringify(route)}`);
        const status = page.locator('main[aria-busy="true"] > .progress[role="status"]');
        await status.filter({ hasText: loading }).waitFor();
        expect(await axeViolations(page), route).to.deep.equal([]);
        await release();
        await page.locator('main[aria-busy]').waitFor({ state: 'detached' });
        expect(await page.locator('main .progress:not(:empty)').count(), route).to.equal(0);
      }
      expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
    });
  }

  it('when alice shows older sightings slowly, ' +
    'then the button is busy and a status line says what loads', async function () {
    const { vesselId, first } = await vesselWithSightings(suite.service, 60);
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#vessel/${vesselId}`);
    await page.getByText('1–50 of 60', { exact: true }).waitFor();
    const release = await holdApi(page);
    await page.getByRole('button', { name: 'Show older sightings' }).click();
    await page.locator('button.more[aria-busy="true"] + .progress[role="status"]')
      .filter({ hasText: 'Loading more sightings…' }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    await release();
    await page.getByText('1–60 of 60', { exact: true }).waitFor();
    expect(await page.locator('.progress:not(:empty)').count()).to.equal(0);

    // The delete's line counts down: 6, then fewer, while its Undo is there.
    await page.getByRole('button', { name: `Delete #${first}`, exact: true }).click();
    await page.locator('tr.deleting', { hasText: /is deleted in [1-5] seconds/ }).waitFor();
    await page.locator('tr.deleting').getByRole('button', { name: 'Undo' }).click();
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);
  });
});
