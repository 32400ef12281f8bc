// Screens for roles the person lacks: a reader (viewer) is not offered recording, and its address says which role it
// needs.
import { expect } from 'chai';
import { browserSuite, unexpectedProblems, type Person } from '../support/web-page.ts';

describe('web page: roles the person lacks', () => {
  const suite = browserSuite();
  let person: Person | undefined;

  it('when viewer (reader only) signs in, ' +
    'then recording is not offered, and its address says the writer role is needed', async function () {
    person = await suite.signIn('viewer');
    const page = person.page;
    await page.getByRole('heading', { name: 'My sightings' }).waitFor();
    expect(await page.locator('header nav a').allInnerTexts()).to.deep.equal(['Mine', 'By vessel', 'Search']);
    expect(await page.getByRole('link', { name: 'Record a sighting' }).count()).to.equal(0);
    await page.goto(`${suite.service.url}/#record`);
    await page.getByRole('heading', { name: 'Record a sighting' }).waitFor();
    expect(await page.getByRole('note').innerText())
      .to.equal('Recording a sighting needs the writer role; whoever manages your account can give it to you.');
    expect(await page.getByLabel('Memo', { exact: true }).count()).to.equal(0);
    expect(unexpectedProblems(person.watch)).to.deep.equal([]);
  });
});
