// Time zones in XML: create, read, list, update, query by example and delete, XML both ways.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { idFromLocation, unique } from '../support/fixtures.ts';
import { declaration, outcome, xmlCall, xmlType, xsiDeclaration, generalError } from './xml-client.ts';

describe('XML: timezone', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function create(name: string): Promise<number> {
    const response = await xmlCall(service, 'POST', '/timezone',
      { user: 'admin', body: `<timezone><timezoneName>${name}</timezoneName></timezone>` });
    expect(response.status).to.equal(201);
    return idFromLocation(response.headers.get('location'));
  }

  const detail = (id: number, name: string, version = 0) =>
    `${declaration}<timezone><version>${version}</version><timezoneId>${id}</timezoneId>` +
      `<timezoneName>${name}</timezoneName></timezone>`;

  it('when admin posts a time zone as XML, then it is 201 and reading it as XML gives it back', async () => {
    const name = unique('Mars/Olympus');
    const response = await xmlCall(service, 'POST', '/timezone',
      { user: 'admin', body: `${declaration}\n<timezone>\n  <timezoneName>${name}</timezoneName>\n</timezone>\n` });
    const id = idFromLocation(response.headers.get('location'));
    expect(await outcome(response, ['etag']))
      .to.deep.equal({ status: 201, type: null, body: '', headers: { etag: '"0"' } });
    expect(await outcome(await xmlCall(service, 'GET', `/timezone/${id}`), ['etag'])).to.deep.equal({
      status: 200, type: xmlType, headers: { etag: '"0"' }, body: detail(id, name),
    });
  });

  it('when the time zones are listed as XML with a filter, ' +
    'then a <collection> holds the matching <timezone>', async () => {
    const response = await xmlCall(service, 'GET', '/timezone?timezoneName=Europe%2FBerlin');
    const body = await response.text();
    const id = /<timezoneId>(-\d+)<\/timezoneId>/.exec(body)?.[1];
    expect({ status: response.status, type: response.headers.get('content-type'), body }).to.deep.equal({
      status: 200, type: xmlType,
      body: `${declaration}<collection ${xsiDeclaration}><timezone><timezoneId>${id}</timezoneId>` +
        `<timezoneName>Europe/Berlin</timezoneName></timezone></collection>`,
    });
  });

  it('when admin puts a renamed time zone as XML, ' +
    'then it is 204 with ETag "1" and a read shows the new name', async () => {
    const id = await create(unique('Luna/Tycho'));
    const name = unique('Luna/Copernicus');
    const put = await xmlCall(service, 'PUT', `/timezone/${id}`,
      { user: 'admin', body: `<timezone><version>0</version><timezoneName>${name}</timezoneName></timezone>` });
    expect(await outcome(put, ['etag'])).to.deep.equal({ status: 204, type: null, body: '', headers: { etag: '"1"' } });
    expect(await (await xmlCall(service, 'GET', `/timezone/${id}`)).text()).to.equal(detail(id, name, 1));
  });

  it('when time zones are queried by an XML example, then the matches come in the detail view', async () => {
    const name = unique('Titan/Kraken');
    const id = await create(name);
    const response = await xmlCall(service, 'POST', '/timezone/qbe',
      { body: `<timezone><timezoneName>${name.slice(13)}</timezoneName></timezone>` });
    expect(await outcome(response)).to.deep.equal({
      status: 200, type: xmlType, headers: {},
      body: `${declaration}<collection ${xsiDeclaration}>${detail(id, name).slice(declaration.length)}</collection>`,
    });
  });

  it('when admin deletes a time zone with Accept text/xml, then it is 204 and a read is a 404 in XML', async () => {
    const id = await create(unique('Io/Loki'));
    expect(await outcome(await xmlCall(service, 'DELETE', `/timezone/${id}`, { user: 'admin' })))
      .to.deep.equal({ status: 204, type: null, headers: {}, body: '' });
    expect(await outcome(await xmlCall(service, 'GET', `/timezone/${id}`))).to.deep.equal({
      status: 404, type: xmlType, headers: {}, body: generalError('The record does not exist.'),
    });
  });
});
