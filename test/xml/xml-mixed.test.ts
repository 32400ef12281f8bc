// Mixed and negotiated requests: Content-Type picks the body parser, Accept the answer, independently of each other.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { idFromLocation, unique } from '../support/fixtures.ts';
import { declaration, outcome, xmlCall, xmlType, jsonType, generalError } from './xml-client.ts';

describe('XML: mixed requests and negotiation', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when a sighting is posted as XML and read as JSON, then JSON shows what the XML said', async () => {
    const memo = unique('xml in');
    const created = await xmlCall(service, 'POST', '/sighting', {
      accept: 'application/json',
      body: `<sighting><sightingMemo>${memo}</sightingMemo><vessel><vesselId>-1</vesselId></vessel>` +
        `<sightingTimezone>UTC</sightingTimezone></sighting>`,
    });
    expect(created.status).to.equal(201);
    const id = idFromLocation(created.headers.get('location'));
    const read = await xmlCall(service, 'GET', `/sighting/${id}`, { accept: 'application/json' });
    expect({ status: read.status, type: read.headers.get('content-type'), body: await read.json() }).to.deep.equal({
      status: 200, type: jsonType,
      body: { version: 0, sightingId: id, sightingMemo: memo, vessel: { version: 0, vesselId: -1,
        vesselName: 'Klingon Warbird' }, sightingTimezone: 'UTC', sightingDate: null },
    });
  });

  it('when a vessel is posted as JSON and read as XML, then the XML carries the same names', async () => {
    const name = unique('json in');
    const created = await xmlCall(service, 'POST', '/vessel', { user: 'admin', contentType: 'application/json',
      body: JSON.stringify({ vesselName: { en: name, de: 'Ä & <Ö>' } }) });
    const id = idFromLocation(created.headers.get('location'));
    expect(await outcome(await xmlCall(service, 'GET', `/vessel/${id}`))).to.deep.equal({
      status: 200, type: xmlType, headers: {},
      body: `${declaration}<vessel><version>0</version><vesselId>${id}</vesselId><vesselName>` +
        `<text xml:lang="en">${name}</text><text xml:lang="de">Ä &amp; &lt;Ö&gt;</text></vesselName></vessel>`,
    });
  });

  it('when XML is sent as application/xml, then it is read like text/xml', async () => {
    const memo = unique('application/xml');
    const created = await xmlCall(service, 'POST', '/sighting', { contentType: 'application/xml; charset=UTF-8',
      body: `<sighting><sightingMemo>${memo}</sightingMemo><vessel><vesselId>-1</vesselId></vessel></sighting>` });
    expect(created.status).to.equal(201);
    const read = await xmlCall(service, 'GET', `/sighting/${idFromLocation(created.headers.get('location'))}`,
      { accept: 'application/json' });
    expect(((await read.json()) as { sightingMemo: string }).sightingMemo).to.equal(memo);
  });

  it('when Accept is application/xml, then the answer is text/xml', async () => {
    const response = await xmlCall(service, 'GET', '/sighting/-1', { accept: 'application/xml' });
    // A read by id is one record, never compressed: it varies by Accept alone.
    expect({ status: response.status, type: response.headers.get('content-type'), vary: response.headers.get('vary') })
      .to.deep.equal({ status: 200, type: xmlType, vary: 'Accept' });
  });

  it('when Accept prefers XML by q-value, then XML wins; when it accepts anything, then JSON', async () => {
    const preferXml = await xmlCall(service, 'GET', '/sighting/-1', { accept: 'application/json;q=0.5, text/xml' });
    const anything = await xmlCall(service, 'GET', '/sighting/-1', { accept: '*/*' });
    expect([preferXml, anything].map((r) => r.headers.get('content-type'))).to.deep.equal([xmlType, jsonType]);
  });

  it('when Accept allows neither JSON nor XML, then it is 406 with a JSON body', async () => {
    const response = await xmlCall(service, 'GET', '/sighting/-1', { accept: 'text/html' });
    expect({ status: response.status, type: response.headers.get('content-type'), body: await response.json() })
      .to.deep.equal({
      status: 406, type: jsonType, body: { general: 'The response can be sent as application/json or text/xml only.' },
    });
  });

  it('when the body is neither JSON nor XML, then it is 415, in XML when XML is accepted', async () => {
    const response = await xmlCall(service, 'POST', '/sighting', { contentType: 'text/plain', body: 'unheimlich!' });
    expect(await outcome(response)).to.deep.equal({
      status: 415, type: xmlType, headers: {},
      body: generalError('The request body must be application/json or text/xml.'),
    });
  });

  it('when a field error comes from an XML request, ' +
    'then it is the same error as for the same JSON request', async () => {
    const asXml = await xmlCall(service, 'POST', '/sighting', { accept: 'application/json',
      body: '<sighting><sightingMemo>x</sightingMemo><vessel><vesselId>abc</vesselId></vessel></sighting>' });
    const asJson = await xmlCall(service, 'POST', '/sighting', { accept: 'application/json',
      contentType: 'application/json', body: JSON.stringify({ sightingMemo: 'x', vessel: { vesselId: 'abc' } }) });
    const expected = {
      sightingMemo: { message: 'The memo must have at least 2 characters.', key: 'sighting.memo.minLength' },
      'vessel.vesselId': { message: 'An id must be a whole number.', key: 'error.id.invalid' },
    };
    expect([asXml.status, await asXml.json(), asJson.status, await asJson.json()])
      .to.deep.equal([400, expected, 400, expected]);
  });
});
