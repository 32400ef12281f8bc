// Every error status in XML: <errors><general>…</general></errors>, or one element per field path.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { createSighting, createVessel, buildSighting, unique } from '../support/fixtures.ts';
import { outcome, xmlCall, xmlType, jsonType, generalError, fieldErrors } from './xml-client.ts';

describe('XML: errors', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const sightingXml = (memo: string, version?: number) =>
    `<sighting>${version === undefined ? '' : `<version>${version}</version>`}<sightingMemo>${memo}</sightingMemo>` +
      `<vessel><vesselId>-1</vesselId></vessel></sighting>`;

  it('when field rules fail, ' +
    'then 400 has one element per field path, dots kept, in the request\'s locale', async () => {
    const response = await xmlCall(service, 'POST', '/vessel', {
      user: 'admin', headers: { 'Accept-Language': 'de' },
      body: '<vessel><vesselId>7</vesselId><vesselName><text xml:lang="en"></text></vesselName></vessel>',
    });
    expect(await outcome(response)).to.deep.equal({
      status: 400, type: xmlType, headers: {},
      body: fieldErrors({
        vesselId: { message: 'Dieses Feld wird vom Server erzeugt und darf nicht gesendet werden.',
          key: 'error.field.serverGenerated' },
        'vesselName.en': { message: 'Ein Name darf nicht leer sein.', key: 'vessel.name.empty' },
      }),
    });
  });

  it('when a field path is no XML name (a JSON key with a space), ' +
    'then its characters are escaped as _xHHHH_', async () => {
    const response = await xmlCall(service, 'POST', '/sighting', {
      contentType: 'application/json', body: JSON.stringify({ ...buildSighting(), 'seen by': 'me', '1st': true }),
    });
    expect(await outcome(response)).to.deep.equal({
      status: 400, type: xmlType, headers: {},
      body: fieldErrors({
        seen_x0020_by: { message: 'This field is unknown.', key: 'error.field.unknown' },
        _x0031_st: { message: 'This field is unknown.', key: 'error.field.unknown' },
      }),
    });
  });

  it('when no token is sent, then 401 in XML with a Bearer challenge', async () => {
    const response = await xmlCall(service, 'GET', '/sighting/-1', { user: null });
    expect(await outcome(response, ['www-authenticate'])).to.deep.equal({
      status: 401, type: xmlType, headers: { 'www-authenticate': 'Bearer realm="sighting"' },
      body: generalError('A valid access token is required.'),
    });
  });

  it('when a reader tries to record a sighting, then 403 in XML', async () => {
    const response = await xmlCall(service, 'POST', '/sighting', { user: 'viewer', body: sightingXml(unique('memo')) });
    expect(await outcome(response)).to.deep.equal({ status: 403, type: xmlType, headers: {},
      body: generalError('You are not allowed to do this.') });
  });

  it('when a method is not allowed, then 405 in XML with Allow', async () => {
    const response = await xmlCall(service, 'POST', '/sighting/-1', { body: sightingXml('xx') });
    const { headers, ...rest } = await outcome(response, ['allow']);
    expect(rest).to.deep.equal({ status: 405, type: xmlType, body: generalError('This method is not allowed here.') });
    expect(headers.allow?.split(/,\s*/).sort()).to.include.members(['DELETE', 'GET', 'PUT']);
  });

  it('when Accept allows neither format, then 406 is the one error answered in JSON', async () => {
    const response =
      await xmlCall(service, 'POST', '/sighting', { accept: 'image/png', body: sightingXml(unique('memo')) });
    expect({ status: response.status, type: response.headers.get('content-type'), body: await response.json() })
      .to.deep.equal({
      status: 406, type: jsonType, body: { general: 'The response can be sent as application/json or text/xml only.' },
    });
  });

  it('when the version is stale, then 409 in XML and nothing is written', async () => {
    const memo = unique('memo');
    const id = await createSighting(service, buildSighting({ sightingMemo: memo }));
    expect((await xmlCall(service, 'PUT', `/sighting/${id}`, { body: sightingXml(unique('first'), 0) })).status)
      .to.equal(204);
    const stale = await xmlCall(service, 'PUT', `/sighting/${id}`, { body: sightingXml(unique('second'), 0) });
    expect(await outcome(stale)).to.deep.equal({
      status: 409, type: xmlType, headers: {},
      body:
        generalError('The record was changed by someone else in the meantime; read it again and repeat your change.'),
    });
  });

  it('when a vessel still referenced is deleted, then 409 in XML', async () => {
    const vesselId = await createVessel(service);
    await createSighting(service, buildSighting({ vessel: { vesselId } }));
    const response = await xmlCall(service, 'DELETE', `/vessel/${vesselId}`, { user: 'admin' });
    expect(await outcome(response)).to.deep.equal({
      status: 409, type: xmlType, headers: {},
      body: generalError('The record is still referenced by other records and cannot be deleted.'),
    });
  });

  it('when If-Match names another version, then 412 in XML', async () => {
    const id = await createSighting(service);
    const response = await xmlCall(service, 'PUT', `/sighting/${id}`,
      { headers: { 'If-Match': '"7"' }, body: sightingXml(unique('memo'), 0) });
    expect(await outcome(response)).to.deep.equal({ status: 412, type: xmlType, headers: {},
      body: generalError('The record does not match the If-Match condition.') });
  });

  it('when the XML body is larger than the limit, then 413 in XML', async () => {
    const response = await xmlCall(service, 'POST', '/sighting', { body: sightingXml('x'.repeat(70 * 1024)) });
    expect(await outcome(response))
      .to.deep.equal({ status: 413, type: xmlType, headers: {}, body: generalError('The request body is too large.') });
  });

  it('when the XML body is sent with an unsupported Content-Type, then 415 in XML', async () => {
    const response = await xmlCall(service, 'POST', '/sighting',
      { contentType: 'application/atom+xml', body: sightingXml(unique('memo')) });
    expect(await outcome(response)).to.deep.equal({ status: 415, type: xmlType, headers: {},
      body: generalError('The request body must be application/json or text/xml.') });
  });
});
