// The web page's search: sightings whose memo contains a text (query by example), yours marked; nothing found says so;
// the text is kept in the address (reload, Back).
import { expect } from 'chai';
import { screenshotPath } from '../support/browser.ts';
import { buildSighting, createSighting, unique } from '../support/fixtures.ts';
import { browserSuite, openScreen, unexpectedProblems, type Person } from '../support/web-page.ts';

describe('web page: search by text', () => {
  const suite = browserSuite();
  let person: Person | undefined;

  it('when bob searches a part of two memos, ' +
    'then both sightings show with their memos, and only his own offers edit and delete', async function () {
    const word = unique('nebula').replace(/-/g, '');
    const alices = await createSighting(suite.service, buildSighting({ sightingMemo: `A ${word} at dawn` }), 'alice');
    const bobs =
      await createSighting(suite.service, buildSighting({ sightingMemo: `${word.toUpperCase()} again` }), 'bob');
    person = await suite.signIn('bob');
    const page = person.page;
    await openScreen(page, 'Search', 'Search sightings');
    await page.getByLabel('Text in the memo').fill(word.slice(3, -3));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–2 of 2', { exact: true }).waitFor();
    const rows = await Promise.all((await page.locator('table.sightings tbody tr').all()).map(async (tr) => [
      Number(await tr.getAttribute('data-sighting-id')), await tr.locator('td.memo').innerText(),
      await tr.locator('td.row-actions').innerText(),
    ]));
    // Newest first, as every list.
    expect(rows)
      .to.deep.equal([[bobs, `${word.toUpperCase()} again`, 'yours\nEdit\nDelete'], [alices, `A ${word} at dawn`, '']]);
    await page.screenshot({ path: screenshotPath('web-search'), fullPage: true });
    // The text is in the address: a reload shows the same search.
    expect(new URL(page.url()).hash).to.equal(`#search?${new URLSearchParams({ q: word.slice(3, -3) })}`);
    await page.reload();
    await page.getByText('1–2 of 2', { exact: true }).waitFor();
    expect(await page.getByLabel('Text in the memo').inputValue()).to.equal(word.slice(3, -3));

    await page.getByLabel('Text in the memo').fill(unique('nothing like it'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No sighting matches.').waitFor();
    // Back is the search before.
    await page.goBack();
    await page.getByText('1–2 of 2', { exact: true }).waitFor();
    expect(unexpectedProblems(person.watch)).to.deep.equal([]);
  });
});
