// Sightings in XML: create, read, list, update, query by example and delete, XML both ways.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { createVessel, buildVessel, idFromLocation, unique } from '../support/fixtures.ts';
import { declaration, outcome, xmlCall, xmlType, xsiDeclaration, generalError } from './xml-client.ts';

describe('XML: sighting', () => {
  let service: TestService;
  let vesselId: number;
  let vesselName: string;
  before(async () => {
    service = await sharedService();
    vesselName = unique('Defiant');
    vesselId = await createVessel(service, buildVessel({ vesselName: { en: vesselName } }));
  });

  const sightingXml = (memo: string, rest = '') =>
    `<sighting><sightingMemo>${memo}</sightingMemo><vessel><vesselId>${vesselId}</vesselId></vessel>${rest}</sighting>`;

  async function create(memo: string, rest = ''): Promise<number> {
    const response = await xmlCall(service, 'POST', '/sighting', { body: declaration + sightingXml(memo, rest) });
    expect(response.status).to.equal(201);
    return idFromLocation(response.headers.get('location'));
  }

  const detail = (id: number, memo: string, version = 0, zone = '<sightingTimezone xsi:nil="true"/>',
    date = '<sightingDate xsi:nil="true"/>') =>
    `${declaration}<sighting${(zone + date).includes('xsi:nil') ? ` ${xsiDeclaration}` : ''}>`
    + `<version>${version}</version><sightingId>${id}</sightingId><sightingMemo>${memo}</sightingMemo>`
    + `<vessel><version>0</version><vesselId>${vesselId}</vesselId><vesselName>${vesselName}</vesselName>`
    + `</vessel>${zone}${date}</sighting>`;

  it('when alice posts a sighting as XML, then it is 201 with an empty body, Location and ETag "0"', async () => {
    const response = await xmlCall(service, 'POST', '/sighting', { body: sightingXml(unique('memo')) });
    const id = idFromLocation(response.headers.get('location'));
    expect(await outcome(response, ['location', 'etag'])).to.deep.equal({
      status: 201, type: null, body: '',
      headers: { location: `${new URL(service.api).pathname}/sighting/${id}`, etag: '"0"' },
    });
  });

  it('when a sighting created in XML is read as XML, '
    + 'then every field comes back in the view order, nulls as xsi:nil', async () => {
    const memo = unique('memo');
    const id = await create(memo,
      '<sightingTimezone>Europe/Berlin</sightingTimezone><sightingDate>2026-11-22T21:30</sightingDate>');
    expect(await outcome(await xmlCall(service, 'GET', `/sighting/${id}`), ['etag'])).to.deep.equal({
      status: 200, type: xmlType, headers: { etag: '"0"' },
      body: detail(id, memo, 0, '<sightingTimezone>Europe/Berlin</sightingTimezone>',
        '<sightingDate>2026-11-22T21:30:00.000</sightingDate>'),
    });
  });

  it('when the sightings are listed as XML with a filter, '
    + 'then a <collection> holds one <sighting> in the list view', async () => {
    const id = await create(unique('memo'));
    expect(await outcome(await xmlCall(service, 'GET', `/sighting?sightingId=${id}`))).to.deep.equal({
      status: 200, type: xmlType, headers: {},
      body: `${declaration}<collection ${xsiDeclaration}><sighting><sightingId>${id}</sightingId><vessel>`
        + `<vesselId>${vesselId}</vesselId>`
        + `<vesselName>${vesselName}</vesselName></vessel><sightingTimezone xsi:nil="true"/>`
        + `<sightingDate xsi:nil="true"/></sighting></collection>`,
    });
  });

  it('when no sighting matches a list filter, then the XML list is an empty <collection>', async () => {
    expect(await outcome(await xmlCall(service, 'GET', '/sighting?sightingMemo=nobody-wrote-this'))).to.deep.equal({
      status: 200, type: xmlType, headers: {}, body: `${declaration}<collection ${xsiDeclaration}></collection>`,
    });
  });

  it('when alice puts a changed sighting as XML, '
    + 'then it is 204 with ETag "1" and a read shows the change', async () => {
    const id = await create(unique('memo'));
    const memo = unique('changed');
    const put = await xmlCall(service, 'PUT', `/sighting/${id}`, {
      body: `<sighting><version>0</version><sightingMemo>${memo}</sightingMemo><vessel>`
        + `<vesselId>${vesselId}</vesselId></vessel>`
        + '<sightingTimezone>+02:00</sightingTimezone></sighting>',
    });
    expect(await outcome(put, ['etag'])).to.deep.equal({ status: 204, type: null, body: '', headers: { etag: '"1"' } });
    expect(await (await xmlCall(service, 'GET', `/sighting/${id}`)).text())
      .to.equal(detail(id, memo, 1, '<sightingTimezone>+02:00</sightingTimezone>'));
  });

  it('when sightings are queried by an XML example, '
    + 'then the matches come as a <collection> in the detail view', async () => {
    const memo = unique('qbe');
    const id = await create(memo);
    const response = await xmlCall(service, 'POST', '/sighting/qbe', {
      body: `<sighting><sightingMemo>${memo.slice(4).toUpperCase()}</sightingMemo><vessel>`
        + `<vesselName>${vesselName.slice(0, 12)}</vesselName></vessel></sighting>`,
    });
    const [, rest] = detail(id, memo).split(`<sighting ${xsiDeclaration}>`);
    expect(await outcome(response)).to.deep.equal({ status: 200, type: xmlType, headers: {},
      body: `${declaration}<collection ${xsiDeclaration}><sighting>${rest}</collection>` });
  });

  it('when an XML example matches nothing, then it is 204 without a body', async () => {
    const response = await xmlCall(service, 'POST', '/sighting/qbe',
      { body: `<sighting><sightingMemo>${unique('none')}</sightingMemo></sighting>` });
    expect(await outcome(response)).to.deep.equal({ status: 204, type: null, headers: {}, body: '' });
  });

  it('when alice deletes her sighting with Accept text/xml, then it is 204 and a read is a 404 in XML', async () => {
    const id = await create(unique('memo'));
    expect(await outcome(await xmlCall(service, 'DELETE', `/sighting/${id}`)))
      .to.deep.equal({ status: 204, type: null, headers: {}, body: '' });
    expect(await outcome(await xmlCall(service, 'GET', `/sighting/${id}`))).to.deep.equal({
      status: 404, type: xmlType, headers: {}, body: generalError('The record does not exist.'),
    });
  });
});
