// How XML text becomes typed values: by the body schema, then the same validation as JSON (same errors, same keys).
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { createSighting, idFromLocation, unique } from '../support/fixtures.ts';
import { xmlCall, jsonType } from './xml-client.ts';

describe('XML: typing by the schema', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** Sends the same request as XML and as JSON (a string is sent as it is), both answered in JSON. */
  async function both(method: string, path: string, xml: string, json: unknown, user: 'alice' | 'admin' = 'alice') {
    const asXml = await xmlCall(service, method, path, { user, accept: 'application/json', body: xml });
    const asJson = await xmlCall(service, method, path, { user, accept: 'application/json',
      contentType: 'application/json', body: typeof json === 'string' ? json : JSON.stringify(json) });
    return { xml: { status: asXml.status, body: await asXml.text() },
      json: { status: asJson.status, body: await asJson.text() } };
  }

  async function readJson(path: string): Promise<Record<string, unknown>> {
    const response = await xmlCall(service, 'GET', path, { accept: 'application/json' });
    expect(response.headers.get('content-type')).to.equal(jsonType);
    return await response.json() as Record<string, unknown>;
  }

  it('when the same invalid values come as XML and as JSON, then the errors are the same', async () => {
    const { xml, json } = await both('POST', '/sighting',
      '<sighting><sightingId>5</sightingId><sightingMemo/><vessel><vesselId>1.5</vesselId></vessel>'
        + '<sightingDate>2026-13-01</sightingDate><color>red</color></sighting>',
      { sightingId: 5, sightingMemo: '', vessel: { vesselId: 1.5 }, sightingDate: '2026-13-01', color: 'red' });
    expect(xml).to.deep.equal(json);
    expect(JSON.parse(xml.body))
      .to.have.all.keys('sightingId', 'sightingMemo', 'vessel.vesselId', 'sightingDate', 'color');
  });

  it('when an id\'s text is a number a double would round, then it is refused as in JSON, never rounded', async () => {
    const { xml, json } = await both('POST', '/sighting',
      '<sighting><sightingMemo>xx</sightingMemo><vessel><vesselId>-1.0000000000000001</vesselId></vessel></sighting>',
      '{"sightingMemo":"xx","vessel":{"vesselId":-1.0000000000000001}}');
    expect(xml).to.deep.equal(json);
    expect(xml).to.deep.equal({ status: 400, body:
      JSON.stringify({ 'vessel.vesselId': { message: 'An id must be a whole number.', key: 'error.id.invalid' } }) });
  });

  it('when a required text is xsi:nil, then it is null and refused like a JSON null', async () => {
    const { xml, json } = await both('POST', '/sighting',
      '<sighting xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><sightingMemo i:nil="true"/><vessel><vesselId>-1</vesselId></vessel></sighting>',
      { sightingMemo: null, vessel: { vesselId: -1 } });
    expect(xml).to.deep.equal(json);
    expect(xml).to.deep.equal({ status: 400,
      body: JSON.stringify({ sightingMemo: { message: 'The memo is required.', key: 'sighting.memo.required' } }) });
  });

  it('when xsi:nil is used without declaring the xsi prefix, '
    + 'then the document is not namespace-well-formed: 400', async () => {
    const response = await xmlCall(service, 'POST', '/sighting',
      { accept: 'application/json', body: '<sighting><sightingMemo>xx</sightingMemo><vessel><vesselId>-1</vesselId>'
      + '</vessel><sightingDate xsi:nil="true"/></sighting>' });
    expect({ status: response.status, body: await response.json() }).to.deep.equal({ status: 400,
      body: { body: { message: 'The XML document is not well-formed.', key: 'error.malformedXml' } } });
  });

  it('when an optional text is an empty element or xsi:nil, '
    + 'then it is stored as null; text keeps its spaces, CDATA and comments are read as XML says', async () => {
    const memo = unique('  spaced  ');
    const created = await xmlCall(service, 'POST', '/sighting', {
      body: '<sighting xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        + `<sightingMemo>${memo}<![CDATA[<b>&]]><!-- note --></sightingMemo><vessel><vesselId> -1 </vesselId></vessel>`
        + `<sightingTimezone/><sightingDate xsi:nil="true"/></sighting>`,
    });
    expect(created.status).to.equal(201);
    const id = idFromLocation(created.headers.get('location'));
    expect(await readJson(`/sighting/${id}`)).to.deep.equal({
      version: 0, sightingId: id, sightingMemo: `${memo}<b>&`,
      vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone: null, sightingDate: null,
    });
  });

  it('when an element is given twice, then 400 on that field (JSON would silently keep the last)', async () => {
    const response = await xmlCall(service, 'POST', '/sighting',
      { accept: 'application/json', body: '<sighting><sightingMemo>one</sightingMemo><sightingMemo>two</sightingMemo>'
      + '<vessel><vesselId>-1</vesselId></vessel></sighting>' });
    expect({ status: response.status, body: await response.json() }).to.deep.equal({
      status: 400,
      body: { sightingMemo: { message: 'This element is given more than once.', key: 'error.xml.duplicate' } },
    });
  });

  it('when a language map entry is not <text xml:lang>, or a language comes twice, '
    + 'then 400 on the map or on that entry', async () => {
    const bare = await xmlCall(service, 'POST', '/vessel', { user: 'admin', accept: 'application/json',
      body: '<vessel><vesselName><en>Defiant</en></vesselName></vessel>' });
    const twice = await xmlCall(service, 'POST', '/vessel', { user: 'admin', accept: 'application/json',
      body: '<vessel><vesselName><text xml:lang="en">A</text><text xml:lang="en">B</text></vesselName></vessel>' });
    expect([{ status: bare.status, body: await bare.json() }, { status: twice.status, body: await twice.json() }])
      .to.deep.equal([
      { status: 400, body: { vesselName: { message: 'Each entry must be a <text xml:lang="…"> element.',
        key: 'error.xml.mapEntry' } } },
      { status: 400,
        body: { 'vesselName.en': { message: 'This element is given more than once.', key: 'error.xml.duplicate' } } },
    ]);
  });

  it('when an element holds both text and elements, then 400 on that field', async () => {
    const response = await xmlCall(service, 'POST', '/sighting', { accept: 'application/json',
      body: '<sighting><sightingMemo>xx</sightingMemo><vessel>the <vesselId>-1</vesselId></vessel></sighting>' });
    expect({ status: response.status, body: await response.json() }).to.deep.equal({
      status: 400, body: { vessel: { message: 'An element holds either text or elements, not both.',
        key: 'error.xml.mixedContent' } },
    });
  });

  it('when the vessel element is empty, then it is an empty object and refused like JSON {}', async () => {
    const { xml, json } = await both('POST', '/sighting',
      '<sighting><sightingMemo>xx</sightingMemo><vessel/></sighting>', { sightingMemo: 'xx', vessel: {} });
    expect(xml).to.deep.equal(json);
    expect(xml.status).to.equal(400);
  });

  it('when an update carries a version that is no number, then it is the same 400 as in JSON', async () => {
    const id = await createSighting(service);
    const { xml, json } = await both('PUT', `/sighting/${id}`,
      '<sighting><version>one</version><sightingMemo>xx</sightingMemo><vessel><vesselId>-1</vesselId>'
        + '</vessel></sighting>',
      { version: 'one', sightingMemo: 'xx', vessel: { vesselId: -1 } });
    expect(xml).to.deep.equal(json);
    expect(xml).to.deep.equal({ status: 400, body: JSON.stringify(
      { version: { message: 'The version must be a whole number from 0.', key: 'error.version.invalid' } }) });
  });
});
