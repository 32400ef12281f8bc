// Actions shown by what the caller may do: Edit on a sighting's page and the edit screen only for its creator or an
// administrator, asked of the API (`sightingId=…&mine=true`), not found out by a 403 on Save.
import { expect } from 'chai';
import { axeViolations } from '../support/axe.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems } from '../support/web-page.ts';

describe('web page: actions only for who may', () => {
  const suite = browserSuite();

  it('when alice opens bob\'s sighting, then no Edit is offered and its edit screen says she may not; ' +
    'bob and an administrator get Edit', async function () {
    const vesselId = await createVessel(suite.service);
    const id = await createSighting(suite.service, buildSighting({ vessel: { vesselId } }), 'bob');
    const alice = await suite.signIn('alice');
    const page = alice.page;
    await page.goto(`${suite.service.url}/#sighting/${id}`);
    await page.getByRole('table', { name: 'History' }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit' }).count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.goto(`${suite.service.url}/#edit/${id}`);
    await page.getByRole('note')
      .filter({ hasText: 'Only whoever recorded this sighting, or an administrator, can change it.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);
    expect(unexpectedProblems(alice.watch)).to.deep.equal([]);

    for (const user of ['bob', 'admin'] as const) {
      const person = await suite.signIn(user);
      await person.page.goto(`${suite.service.url}/#sighting/${id}`);
      await person.page.getByRole('table', { name: 'History' }).waitFor();
      await person.page.getByRole('link', { name: 'Edit' }).click();
      await person.page.getByRole('button', { name: 'Save', exact: true }).waitFor();
      expect(unexpectedProblems(person.watch)).to.deep.equal([]);
    }
  });
});
