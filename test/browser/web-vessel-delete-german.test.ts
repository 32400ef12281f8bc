// A vessel's delete confirmation names the vessel as the list shows it (in German its German name), and Escape
// closes it, the focus back on Delete.
import { expect } from 'chai';
import { axeViolations } from '../support/axe.ts';
import { buildVessel, createVessel, unique } from '../support/fixtures.ts';
import { browserSuite, unexpectedProblems } from '../support/web-page.ts';

describe('web page: a vessel delete names what is shown', () => {
  const suite = browserSuite();

  it('when an administrator in German deletes a vessel stored with its English name first, ' +
    'then the confirmation names the German one; Escape closes it', async function () {
    const word = unique('Tour');
    const vesselId = await createVessel(suite.service,
      { ...buildVessel(), vesselName: { en: `${word} Vessel`, de: `${word}schiff` } });
    const admin = await suite.signIn('admin', { locale: 'de-DE', language: 'de' });
    const page = admin.page;
    await page.goto(`${suite.service.url}/#admin/${vesselId}`);
    await page.getByRole('link', { name: `${word}schiff` }).waitFor();
    await page.getByRole('button', { name: 'Löschen', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    expect(await confirm.locator('p').innerText()).to.equal(`Das Schiff ${word}schiff löschen?`);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await page.evaluate('document.activeElement?.textContent')).to.equal('Löschen');
    expect(unexpectedProblems(admin.watch)).to.deep.equal([]);
  });
});
