// Error messages in the request's locale: the i18next cookie, then Accept-Language by q-value, then en.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { buildSighting } from '../support/fixtures.ts';
import { message, type ContractMessageKey } from '../../src/i18n/messages.ts';

const tooShort = {
  en: { sightingMemo: { message: 'The memo must have at least 2 characters.', key: 'sighting.memo.minLength' } },
  de: { sightingMemo: { message: 'Das Memo muss mindestens 2 Zeichen haben.', key: 'sighting.memo.minLength' } },
};
const notFound = { en: { general: 'The record does not exist.' }, de: { general: 'Der Datensatz existiert nicht.' } };

describe('localization', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** The 400 body for a one-character memo, sent with `headers`. */
  async function memoError(headers: Record<string, string>): Promise<unknown> {
    const api = await apiClient(service, { headers });
    const { error, response } = await api.POST('/sighting', { body: buildSighting({ sightingMemo: 'x' }) });
    expect(response.status).to.equal(400);
    return error;
  }

  it('when nothing says which language, then the message is in en', async () => {
    expect(await memoError({})).to.deep.equal(tooShort.en);
  });

  for (const [header, locale] of [
    ['de', 'de'],
    ['de-DE', 'de'],
    ['de_AT', 'de'],
    ['en-US', 'en'],
    ['fr;q=0.9, de;q=0.8', 'de'],
    ['fr, en;q=0.5, de;q=0.8', 'de'],
    ['de;q=0.5, en;q=0.9', 'en'],
    ['de;q=0', 'en'],
    ['de;q=0, fr', 'en'],
    ['fr, ja', 'en'],
    ['*', 'en'],
  ] as const) {
    it(`when Accept-Language is "${header}", then the message is in ${locale}`, async () => {
      expect(await memoError({ 'Accept-Language': header })).to.deep.equal(tooShort[locale]);
    });
  }

  it('when the i18next cookie says de, then the message is in de', async () => {
    expect(await memoError({ Cookie: 'i18next=de' })).to.deep.equal(tooShort.de);
    expect(await memoError({ Cookie: 'theme=dark; i18next=de-DE; other=1' })).to.deep.equal(tooShort.de);
  });

  it('when the cookie and Accept-Language disagree, then the cookie wins', async () => {
    expect(await memoError({ Cookie: 'i18next=en', 'Accept-Language': 'de' })).to.deep.equal(tooShort.en);
    expect(await memoError({ Cookie: 'i18next=de', 'Accept-Language': 'en' })).to.deep.equal(tooShort.de);
  });

  it('when the cookie names a language that is not shipped, then Accept-Language decides', async () => {
    expect(await memoError({ Cookie: 'i18next=fr', 'Accept-Language': 'de' })).to.deep.equal(tooShort.de);
  });

  it('when a message has a {max} parameter, then it is replaced in both languages', async () => {
    for (const [language, text] of [['en', 'The memo must have at most 4000 characters.'],
      ['de', 'Das Memo darf höchstens 4000 Zeichen haben.']] as const) {
      const api = await apiClient(service, { headers: { 'Accept-Language': language } });
      const { error } = await api.POST('/sighting', { body: buildSighting({ sightingMemo: 'y'.repeat(4001) }) });
      expect(error).to.deep.equal({ sightingMemo: { message: text, key: 'sighting.memo.maxLength' } });
    }
  });

  it('when a record does not exist, then the 404 says so in en or de', async () => {
    for (const language of ['en', 'de'] as const) {
      const api = await apiClient(service, { headers: { 'Accept-Language': language } });
      const { error, response } = await api.GET('/sighting/{id}', { params: { path: { id: 9007199254740991 } } });
      expect(response.status).to.equal(404);
      expect(error).to.deep.equal(notFound[language]);
    }
  });

  it('when several fields fail in de, then every message is in de', async () => {
    const api = await apiClient(service, { headers: { 'Accept-Language': 'de' } });
    const { error } =
      await api.POST('/sighting', { body: { sightingMemo: 'x', vessel: { vesselId: -1 }, sightingId: 1 as never } });
    expect(error).to.deep.equal({
      sightingMemo: { message: 'Das Memo muss mindestens 2 Zeichen haben.', key: 'sighting.memo.minLength' },
      sightingId: { message: 'Dieses Feld wird vom Server erzeugt und darf nicht gesendet werden.',
        key: 'error.field.serverGenerated' },
    });
  });

  // No HTTP request can reach a key without a bundle entry today (code's keys are typed by the English bundle, and
  // test/architecture/message-keys.test.ts checks the contract's), so the contract's `{key}` fallback is checked on
  // the message renderer itself, with a key as the contract's `x-message-keys` could name it.
  it('when a key has no entry in the bundles, then it renders as the key in curly braces, in every locale', () => {
    const unknown = 'sighting.memo.tooLong' as ContractMessageKey;
    expect(message('en', unknown)).to.equal('{sighting.memo.tooLong}');
    expect(message('de', unknown, { max: 4000 })).to.equal('{sighting.memo.tooLong}');
    expect(message('de', 'sighting.memo.minLength', { min: 2 })).to.equal('Das Memo muss mindestens 2 Zeichen haben.');
  });

  it('when every key of en is looked up in de, ' +
    'then de has its own text for each (no silent English fallback)', async () => {
    const en = (await import('../../locales/en.json', { with: { type: 'json' } })).default as Record<string, string>;
    const de = (await import('../../locales/de.json', { with: { type: 'json' } })).default as Record<string, string>;
    expect(Object.keys(de).sort()).to.deep.equal(Object.keys(en).sort());
  });
});
