// Malformed and unsupported requests: each gets its own 4xx with a localized body, never a 500.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';

const json = { 'Content-Type': 'application/json' };
const malformedBody = { body: { message: 'The request body is not well-formed.', key: 'error.malformedBody' } };

describe('HTTP errors', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** Sends a raw request and answers status, media type and parsed JSON body. */
  async function send(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) {
    const response = await rawRequest(service, method, path, options);
    const text = await response.text();
    return {
      status: response.status,
      mediaType: response.headers.get('content-type')?.split(';')[0] ?? null,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text) as unknown,
    };
  }

  describe('bodies that are not a JSON object', () => {
    it('when the JSON is cut off, then 400 with the malformed-body message', async () => {
      const answer = await send('POST', '/sighting', { headers: json, body: '{"sightingMemo": "x", ' });

      expect(answer).to.deep.include({ status: 400, mediaType: 'application/json', body: malformedBody });
    });

    it('when the request asks for German, then the malformed-body message is German', async () => {
      const answer = await send('POST', '/sighting', { headers: { ...json, 'Accept-Language': 'de' }, body: '{oops' });

      expect(answer).to.deep.include({ status: 400,
        body: { body: { message: 'Der Rumpf der Anfrage ist nicht wohlgeformt.', key: 'error.malformedBody' } } });
    });

    it('when the body is empty with Content-Type JSON, then 400 on the required fields, not 500', async () => {
      const answer = await send('POST', '/sighting', { headers: json, body: '' });

      expect(answer.status).to.equal(400);
      expect(answer.body).to.deep.equal({
        sightingMemo: { message: 'The memo is required.', key: 'sighting.memo.required' },
        vessel: { message: 'The sighting needs a vessel.', key: 'sighting.vessel.required' },
      });
    });

    it('when the body is a JSON array instead of an object, then 400 with the malformed-body message', async () => {
      for (const path of ['/sighting', '/sighting/qbe']) {
        const answer =
          await send('POST', path, { headers: json, body: '[{"sightingMemo": "ok", "vessel": {"vesselId": -1}}]' });
        expect(answer, path).to.deep.include({ status: 400, body: malformedBody });
      }
    });

    it('when the body is JSON null, then 400 with the malformed-body message', async () => {
      const answer = await send('POST', '/sighting', { headers: json, body: 'null' });

      expect(answer).to.deep.include({ status: 400, body: malformedBody });
    });

    it('when the body is a bare JSON string or number, then 400 with the malformed-body message', async () => {
      for (const body of ['"text"', '42']) {
        const answer = await send('POST', '/sighting/qbe', { headers: json, body });
        expect(answer, body).to.deep.include({ status: 400, body: malformedBody });
      }
    });

    it('when an id is a number too large for JSON to carry exactly, then 400 on that field', async () => {
      const answer = await send('POST', '/sighting',
        { headers: json, body: '{"sightingMemo": "ok", "vessel": {"vesselId": 123456789012345678901234567890}}' });

      expect(answer).to.deep.include({ status: 400 });
      expect(answer.body).to.deep.equal({
        'vessel.vesselId': { message: 'An id must lie between -9007199254740991 and 9007199254740991.',
          key: 'error.id.range' },
      });
    });

    it('when a number overflows to infinity, then 400 on that field, not 500', async () => {
      const answer = await send('POST', '/sighting/qbe',
        { headers: json, body: '{"version": 1e400, "vessel": {"vesselId": -1e400}}' });

      expect(answer).to.deep.include({ status: 400 });
      expect(answer.body).to.deep.equal({
        version: { message: 'The version must be a whole number from 0.', key: 'error.version.invalid' },
        'vessel.vesselId': { message: 'An id must be a whole number.', key: 'error.id.invalid' },
      });
    });
  });

  describe('fields', () => {
    it('when the body has a field the resource does not have, then 400 on that field', async () => {
      const answer = await send('POST', '/sighting',
        { headers: json, body: JSON.stringify({ sightingMemo: 'ok', vessel: { vesselId: -1 }, colour: 'red' }) });

      expect(answer).to.deep.include({ status: 400,
        body: { colour: { message: 'This field is unknown.', key: 'error.field.unknown' } } });
    });
  });

  describe('media types and size', () => {
    it('when the body is larger than the 64kb limit, then 413 with a general message', async () => {
      const body = JSON.stringify({ sightingMemo: 'x'.repeat(70 * 1024), vessel: { vesselId: -1 } });

      const answer = await send('POST', '/sighting', { headers: json, body });

      expect(answer).to.deep.include({ status: 413, mediaType: 'application/json',
        body: { general: 'The request body is too large.' } });
    });

    it('when the body is text/plain, then 415 with a general message', async () => {
      const answer =
        await send('POST', '/sighting', { headers: { 'Content-Type': 'text/plain' }, body: 'sightingMemo=ok' });

      expect(answer).to.deep.include({ status: 415, mediaType: 'application/json',
        body: { general: 'The request body must be application/json or text/xml.' } });
    });

    it('when the body is multipart/form-data, ' +
      'then 415 with a general message (no operation takes a form)', async () => {
      const body = '--b\r\nContent-Disposition: form-data; name="sightingMemo"\r\n\r\nok\r\n--b--\r\n';
      const answer =
        await send('POST', '/sighting', { headers: { 'Content-Type': 'multipart/form-data; boundary=b' }, body });

      expect(answer).to.deep.include({ status: 415, mediaType: 'application/json',
        body: { general: 'The request body must be application/json or text/xml.' } });
    });

    it('when Accept allows only image/png, then 406 with a JSON body', async () => {
      const answer = await send('GET', '/sighting/-1', { headers: { Accept: 'image/png' } });

      expect(answer).to.deep.include({ status: 406, mediaType: 'application/json',
        body: { general: 'The response can be sent as application/json or text/xml only.' } });
    });

    it('when Accept is */*, then the answer is JSON', async () => {
      const answer = await send('GET', '/timezone?limit=1', { headers: { Accept: '*/*' } });

      expect(answer.status).to.equal(200);
      expect(answer.mediaType).to.equal('application/json');
      expect(answer.body).to.be.an('array').with.length(1);
    });
  });

  describe('paths and methods', () => {
    it('when the method is not one the path has, then 405 with an Allow header', async () => {
      const answer = await send('POST', '/sighting/-1', { headers: json, body: '{}' });

      expect(answer).to.deep.include({ status: 405, mediaType: 'application/json',
        body: { general: 'This method is not allowed here.' } });
      expect(answer.headers.get('Allow')?.split(/,\s*/).sort())
        .to.deep.equal(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT']);
    });

    it('when the path names no collection, then 404 with a general message', async () => {
      const answer = await send('GET', '/nothing');

      expect(answer).to.deep.include({ status: 404, mediaType: 'application/json',
        body: { general: 'There is nothing at this address.' } });
    });
  });
});
