// Vessels in XML: create, read, list, update, query by example and delete; the names as <text xml:lang="…"> entries.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { idFromLocation, unique } from '../support/fixtures.ts';
import { declaration, outcome, xmlCall, xmlType, xsiDeclaration, generalError, fieldErrors } from './xml-client.ts';

describe('XML: vessel', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const names = (texts: Record<string, string>) =>
    `<vesselName>${Object.entries(texts).map(([lang, text]) => `<text xml:lang="${lang}">${text}</text>`).join('')}`
    + '</vesselName>';

  async function create(texts: Record<string, string>): Promise<number> {
    const response =
      await xmlCall(service, 'POST', '/vessel', { user: 'admin', body: `<vessel>${names(texts)}</vessel>` });
    expect(response.status).to.equal(201);
    return idFromLocation(response.headers.get('location'));
  }

  it('when admin posts a vessel as XML, '
    + 'then it is 201 and reading it as XML gives the names as <text xml:lang>', async () => {
    const name = unique('Enterprise');
    const response = await xmlCall(service, 'POST', '/vessel',
      { user: 'admin', body: `${declaration}<vessel>${names({ en: name, 'pt-BR': `${name} ç` })}</vessel>` });
    const id = idFromLocation(response.headers.get('location'));
    expect(await outcome(response, ['etag']))
      .to.deep.equal({ status: 201, type: null, body: '', headers: { etag: '"0"' } });
    expect(await outcome(await xmlCall(service, 'GET', `/vessel/${id}`), ['etag'])).to.deep.equal({
      status: 200, type: xmlType, headers: { etag: '"0"' },
      body: `${declaration}<vessel><version>0</version>`
        + `<vesselId>${id}</vesselId>${names({ en: name, 'pt-BR': `${name} ç` })}</vessel>`,
    });
  });

  it('when the vessels are listed as XML in German, then each <vessel> has its one localized name', async () => {
    const name = unique('Voyager');
    const id = await create({ en: name, de: `${name} (de)` });
    const response = await xmlCall(service, 'GET', `/vessel?vesselId=${id}`, { headers: { 'Accept-Language': 'de' } });
    expect(await outcome(response)).to.deep.equal({
      status: 200, type: xmlType, headers: {},
      body: `${declaration}<collection ${xsiDeclaration}><vessel><vesselId>${id}</vesselId>`
        + `<vesselName>${name} (de)</vesselName></vessel></collection>`,
    });
  });

  it('when admin puts the vessel as XML without one of its names, '
    + 'then that name is gone and the version is 1', async () => {
    const name = unique('Reliant');
    const id = await create({ en: name, de: `${name} (de)` });
    const put = await xmlCall(service, 'PUT', `/vessel/${id}`, { user: 'admin',
      body: `<vessel><version>0</version><vesselId>${id}</vesselId>${names({ de: 'Zuverlässig' })}</vessel>` });
    expect(await outcome(put, ['etag'])).to.deep.equal({ status: 204, type: null, body: '', headers: { etag: '"1"' } });
    expect(await (await xmlCall(service, 'GET', `/vessel/${id}`)).text())
      .to.equal(`${declaration}<vessel><version>1</version>`
        + `<vesselId>${id}</vesselId>${names({ de: 'Zuverlässig' })}</vessel>`);
  });

  it('when vessels are queried by an XML example with a language map, '
    + 'then the text under that language must match', async () => {
    const name = unique('Excelsior');
    const id = await create({ en: name, de: `${name} (de)` });
    const byGerman = await xmlCall(service, 'POST', '/vessel/qbe',
      { body: `<vessel>${names({ de: `${name.slice(10)} (DE` })}</vessel>` });
    expect(await outcome(byGerman)).to.deep.equal({
      status: 200, type: xmlType, headers: {},
      body: `${declaration}<collection ${xsiDeclaration}><vessel><version>0</version>`
        + `<vesselId>${id}</vesselId>${names({ en: name, de: `${name} (de)` })}</vessel></collection>`,
    });
    const wrongLanguage =
      await xmlCall(service, 'POST', '/vessel/qbe', { body: `<vessel>${names({ en: `${name} (de)` })}</vessel>` });
    expect(await outcome(wrongLanguage)).to.deep.equal({ status: 204, type: null, headers: {}, body: '' });
  });

  it('when vessels are queried by an XML example with a name map, '
    + 'then the text under each given language must contain it; a plain text is a 400', async () => {
    const name = unique('Stargazer');
    const id = await create({ en: name, de: `${name} (de)` });
    const response = await xmlCall(service, 'POST', '/vessel/qbe', { body: `<vessel><vesselName>`
      + `<text xml:lang="de">${name.slice(10).toUpperCase()} (DE</text></vesselName></vessel>` });
    expect(await outcome(response)).to.deep.equal({
      status: 200, type: xmlType, headers: {},
      body: `${declaration}<collection ${xsiDeclaration}><vessel><version>0</version>`
        + `<vesselId>${id}</vesselId>${names({ en: name, de: `${name} (de)` })}</vessel></collection>`,
    });
    const plain =
      await xmlCall(service, 'POST', '/vessel/qbe', { body: `<vessel><vesselName>${name}</vesselName></vessel>` });
    expect(await outcome(plain)).to.deep.equal({
      status: 400, type: xmlType, headers: {},
      body: fieldErrors({ vesselName: { message: 'A vessel name must be a language map: '
        + 'an object of texts by language key, such as "en": "Borg Cube".', key: 'vessel.name.notMap' } }),
    });
  });

  it('when admin deletes a vessel with Accept text/xml, then it is 204 and a read is a 404 in XML', async () => {
    const id = await create({ en: unique('Yamato') });
    expect(await outcome(await xmlCall(service, 'DELETE', `/vessel/${id}`, { user: 'admin' })))
      .to.deep.equal({ status: 204, type: null, headers: {}, body: '' });
    expect(await outcome(await xmlCall(service, 'GET', `/vessel/${id}`))).to.deep.equal({
      status: 404, type: xmlType, headers: {}, body: generalError('The record does not exist.'),
    });
  });
});
