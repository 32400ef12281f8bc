// The web page in German: chosen from the browser's language like the API's locale, switchable, API errors in German by
// the field.
import { expect } from 'chai';
import { screenshotPath } from '../support/browser.ts';
import { browserSuite, openScreen, unexpectedProblems, type Person } from '../support/web-page.ts';

describe('web page: German', () => {
  const suite = browserSuite();
  let person: Person | undefined;

  it('when a person with an English browser chooses Deutsch before signing in, ' +
    'then the realm\'s login page is German too, with its landmarks', async function () {
    const embedded = !process.env.KEYCLOAK_URL;
    const seen = await suite.signIn('bob', {
      language: 'de',
      onLoginPage: async (page) => {
        expect(await page.locator('html').getAttribute('lang')).to.equal('de');
        expect(await page.getByLabel(/^\s*passwort\s*$/i).count()).to.equal(1);
        // Ours has a main landmark and its heading; Keycloak's page is Keycloak's own, with the realm's name translated
        // from the realm export's localizationTexts.
        if (embedded) expect(await page.getByRole('main').getByRole('heading', { level: 1 }).innerText())
          .to.equal('Beim Sichtungsregister anmelden');
        else {
          expect(await page.title()).to.equal('Anmeldung bei Sichtungsregister');
          // textContent: the theme's CSS shows the header in capitals.
          expect((await page.locator('#kc-header-wrapper').textContent())?.trim()).to.equal('Sichtungsregister');
        }
        await page.screenshot({ path: screenshotPath('login-german') });
      },
    });
    await seen.page.getByRole('heading', { name: 'Meine Sichtungen' }).waitFor();
    expect(unexpectedProblems(seen.watch)).to.deep.equal([]);
  });

  it('when the browser prefers German, then the page and the vessel names are German, ' +
    'and a too short memo gets the API\'s German message next to the field', async function () {
    person = await suite.signIn('alice', { locale: 'de-DE' });
    const page = person.page;
    await page.getByRole('heading', { name: 'Meine Sichtungen' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).to.equal('de');
    expect(await page.locator('header nav a').allInnerTexts())
      .to.deep.equal(['Meine', 'Erfassen', 'Nach Schiff', 'Suchen', 'Importieren']);
    await openScreen(page, 'Erfassen', 'Sichtung erfassen');
    await page.getByLabel('Schiff', { exact: true }).selectOption('-1');
    expect(await page.getByLabel('Schiff', { exact: true }).locator('option:checked').innerText())
      .to.equal('Klingonischer Jäger');
    await page.getByLabel('Memo', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Sichtung erfassen' }).click();

    const memo = page.locator('.field', { has: page.getByLabel('Memo', { exact: true }) });
    await memo.locator('.field-error').waitFor();
    expect(await memo.locator('.field-error').innerText()).to.equal('Das Memo muss mindestens 2 Zeichen haben.');
    expect(await page.getByLabel('Memo', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByLabel('Memo', { exact: true })
      .evaluate((element) => element === element.ownerDocument.activeElement)).to.equal(true);
    expect(await memo.locator('.hint').innerText()).to.equal('2 bis 4000 Zeichen. 1 / 4000');
    await page.screenshot({ path: screenshotPath('web-german'), fullPage: true });
    expect(unexpectedProblems(person.watch, [/HTTP 400: POST .*\/api\/sighting$/, /status of 400 \(Bad Request\)/]))
      .to.deep.equal([]);
  });

  it('when the person switches to English, ' +
    'then the page, the vessel names and the API\'s messages follow (the i18next cookie)', async function () {
    const page = person!.page;
    // The screen is drawn again in the other language: the typed memo would go, so the page asks first, in German.
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    }));
    await page.getByLabel('Sprache').selectOption('en');
    expect(await asked).to.equal('Ihre Änderungen auf dieser Seite sind noch nicht gespeichert. ' +
      'Die Seite verlassen und die Änderungen verwerfen?');
    await page.getByRole('heading', { name: 'Record a sighting' }).waitFor();
    expect(await page.getByLabel('Vessel', { exact: true }).locator('option[value="-1"]').innerText())
      .to.equal('Klingon Warbird');
    const cookies = await person!.context.cookies(suite.service.url);
    expect(cookies.filter((c) => c.name === 'i18next').map((c) => c.value)).to.deep.equal(['en']);
    await page.getByLabel('Memo', { exact: true }).fill('y');
    await page.getByRole('button', { name: 'Record sighting' }).click();
    const error = page.locator('.field', { has: page.getByLabel('Memo', { exact: true }) }).locator('.field-error');
    await error.waitFor();
    expect(await error.innerText()).to.equal('The memo must have at least 2 characters.');
    // A reload keeps the choice: the cookie comes before the browser's language, as for the API.
    await page.reload();
    await page.getByRole('heading', { name: 'Record a sighting' }).waitFor();
  });
});
