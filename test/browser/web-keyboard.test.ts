// The web page with the keyboard alone: every control labelled, a sensible Tab order, errors take the focus, Enter
// records.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { unique } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems, type Person } from '../support/web-page.ts';

/** What has the focus: a control's name, a button's text, or the tag name. */
const focused = (page: Page) => page.evaluate<string>(`(() => {
  const element = document.activeElement;
  return element.getAttribute('name')
    || (element.tagName === 'BUTTON' ? element.textContent : element.tagName.toLowerCase());
})()`);

describe('web page: keyboard only', () => {
  const suite = browserSuite();
  let person: Person | undefined;

  it('when alice records a sighting with the keyboard alone, ' +
    'then Tab walks the form in order, the first missing field takes the focus, and Enter records', async function () {
    person = await suite.signIn('alice');
    const page = person.page;
    await page.goto(`${suite.service.url}/#record`);
    await page.getByRole('heading', { name: 'Record a sighting' }).waitFor();
    const unlabelled = await page.evaluate<number>(`[...document.querySelectorAll('main input, main select, ` +
      `main textarea')].filter((c) => c.labels.length === 0).length`);
    expect(unlabelled).to.equal(0);
    expect(await focused(page)).to.equal('h1');

    // The date-time picker takes several Tab stops (one per part); the order of the controls is what counts.
    const order: string[] = [];
    for (let i = 0; i < 20 && order.at(-1) !== 'Record sighting'; i++) {
      await page.keyboard.press('Tab');
      const name = await focused(page);
      if (order.at(-1) !== name) order.push(name);
    }
    expect(order).to.deep.equal(['vessel', 'sightingDate', 'sightingTimezone', 'sightingMemo', 'Record sighting']);

    // Nothing chosen yet: the first field in error (the vessel) takes the focus, the memo's error is shown too.
    await page.keyboard.press('Enter');
    await page.locator('.field-error:not([hidden])').nth(1).waitFor();
    expect(await focused(page)).to.equal('vessel');
    expect(await page.getByLabel('Vessel', { exact: true }).inputValue()).to.equal('');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Vessel', { exact: true }).inputValue()).to.not.equal('');
    for (let i = 0; i < 20 && await focused(page) !== 'sightingMemo'; i++) await page.keyboard.press('Tab');
    const memo = unique('typed');
    await page.keyboard.type(memo);
    await page.keyboard.press('Tab');
    expect(await focused(page)).to.equal('Record sighting');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Your sighting is recorded.' }).waitFor();
    await page.getByTestId('vessel-summary').waitFor();
    // The new screen's heading has the focus, so the next Tab starts there.
    expect(await focused(page)).to.equal('h1');
    expect(unexpectedProblems(person.watch, [/HTTP 400: POST .*\/api\/sighting$/, /status of 400 \(Bad Request\)/]))
      .to.deep.equal([]);
  });
});
