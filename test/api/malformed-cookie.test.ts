// A malformed `i18next` cookie names no language: the request is answered in English, never with a 500 or a stack.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';

const badCookies = ['i18next=%E0%A4%A', 'i18next=%', 'i18next=%ZZde', 'a=b; i18next=%C0%AF'];

describe('malformed locale cookie', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function answer(response: Response) {
    return { status: response.status, type: response.headers.get('content-type'),
      body: await response.json() as unknown };
  }

  for (const cookie of badCookies) {
    it(`when the cookie is "${cookie}" on a read, then the record is answered`, async () => {
      const { status, type } =
        await answer(await rawRequest(service, 'GET', '/sighting/-1', { headers: { Cookie: cookie } }));
      expect({ status, type }).to.deep.equal({ status: 200, type: 'application/json; charset=utf-8' });
    });

    it(`when the cookie is "${cookie}" without a token, then it is the English 401`, async () => {
      expect(await answer(await rawRequest(service, 'GET', '/sighting/-1',
        { user: null, headers: { Cookie: cookie } }))).to.deep.equal({
        status: 401, type: 'application/json; charset=utf-8', body: { general: 'A valid access token is required.' },
      });
    });

    it(`when the cookie is "${cookie}" on an unknown path, then it is the English 404 in JSON`, async () => {
      const response = await fetch(`${service.url}/nowhere`, { headers: { Cookie: cookie } });
      expect(await answer(response)).to.deep.equal({
        status: 404, type: 'application/json; charset=utf-8', body: { general: 'There is nothing at this address.' },
      });
    });
  }

  it('when a malformed cookie comes with Accept-Language de, then the language falls back to the header', async () => {
    const response = await rawRequest(service, 'GET', '/sighting/0',
      { headers: { Cookie: 'i18next=%E0%A4%A', 'Accept-Language': 'de' } });
    expect(await answer(response)).to.deep.equal({ status: 404, type: 'application/json; charset=utf-8',
      body: { general: 'Der Datensatz existiert nicht.' } });
  });
});
