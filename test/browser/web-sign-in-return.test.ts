// Signing in from a shared link comes back to it, without asking for the provider's endpoints again, and the
// browser's Back never lands on the sign-in callback (`/?code=…&state=…`).
import { expect } from 'chai';
import { axeViolations } from '../support/axe.ts';
import { watchContext } from '../support/browser.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems } from '../support/web-page.ts';

describe('web page: back to where the person was after signing in', () => {
  const suite = browserSuite();

  it('when bob opens a shared link signed out and signs in, ' +
    'then he is on the linked sighting; Back goes where he came from, never to the callback', async function () {
    const vesselId = await createVessel(suite.service);
    const id = await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'alice');
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 900 } });
    try {
      const watch = await watchContext(context, [suite.service.url, new URL(suite.service.realm).origin]);
      const page = await context.newPage();
      // Where he came from: another page of the same browser tab.
      await page.goto(`${suite.service.url}/web-config.json`);
      await page.goto(`${suite.service.url}/#sighting/${id}`);
      await page.locator('main').getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel(/username/i).fill('bob');
      await page.getByLabel(/^\s*password\s*$/i).fill('bob');
      const discoveries: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/.well-known/openid-configuration')) discoveries.push(request.url());
      });
      await page.getByRole('button', { name: /^\s*sign in\s*$/i }).click();
      await page.getByRole('heading', { name: `Sighting #${id}` }).waitFor();
      // The provider's endpoints were found before leaving for it: the return trades its code without asking again.
      expect(discoveries).to.deep.equal([]);
      expect(page.url()).to.equal(`${suite.service.url}/#sighting/${id}`);
      expect(await axeViolations(page)).to.deep.equal([]);

      // Back leaves the sign-in behind: the login page and the callback are passed over, to where he came from.
      await page.goBack();
      await page.waitForURL(`${suite.service.url}/web-config.json`);
      // Forward again: signed in, on the sighting, never on the callback's address.
      await page.goForward();
      await page.getByRole('heading', { name: `Sighting #${id}` }).waitFor();
      expect(page.url()).to.equal(`${suite.service.url}/#sighting/${id}`);
      expect(unexpectedProblems(watch)).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
