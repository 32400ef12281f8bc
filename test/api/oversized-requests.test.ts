// Oversized requests get an answer, not a reset: 431 for huge headers, a capped error body for thousands of fields.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { rawHttp } from '../support/raw-http.ts';
import { apiVersion } from '../../src/http/api-version.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('oversized requests', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  for (const size of [20_000, 100_000, 1_000_000]) {
    it(`when a request carries ${size} bytes of headers, then 431 with API-Version, closed cleanly`, async () => {
      const answer =
        await rawHttp(service.url, `GET /api/sighting/-1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(size)}\r\n\r\n`);
      // No request id could be read: the answer names one of its own.
      expect(answer.headers['x-request-id']).to.match(uuid);
      expect({ ...answer, headers: { ...answer.headers, 'x-request-id': undefined } }).to.deep.equal({
        status: 431,
        headers: {
          'api-version': apiVersion, 'x-request-id': undefined,
          'content-type': 'application/json; charset=utf-8', 'content-length': '56', connection: 'close',
        },
        body: JSON.stringify({ general: 'The request\'s header fields are too large.' }),
        ending: 'close',
      });
    });
  }

  it('when the request line is not HTTP, then it is answered 400 in JSON with API-Version', async () => {
    const answer = await rawHttp(service.url, 'HELLO THERE\r\n\r\n');
    const { status, headers, body, ending } = answer;
    expect({ status, apiVersion: headers['api-version'], body, ending }).to.deep.equal({
      status: 400, apiVersion, ending: 'close',
      body: JSON.stringify({ general: 'The request is not well-formed HTTP.' }),
    });
  });

  it('when a body has 3000 unknown fields, ' +
    'then 100 are listed and _more counts the other 2900 (and the 2 missing ones)', async () => {
    const body = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`field${i}`, i]));
    const response = await rawRequest(service, 'POST', '/sighting',
      { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json() as Record<string, { message: string; key: string }>;
    const entries = Object.keys(answer);
    expect({ status: response.status, count: entries.length, last: answer._more }).to.deep.equal({
      status: 400, count: 101, last: { message: '2902 more problems are not listed.', key: 'error.validation.more' },
    });
    expect(entries.slice(0, 3)).to.deep.equal(['sightingMemo', 'vessel', 'field0']);
  });

  it('when a body has 100 problems or fewer, then there is no _more entry', async () => {
    const body = Object.fromEntries(Array.from({ length: 98 }, (_, i) => [`field${i}`, i]));
    const response = await rawRequest(service, 'POST', '/sighting',
      { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json() as Record<string, unknown>;
    expect({ status: response.status, count: Object.keys(answer).length, more: answer._more })
      .to.deep.equal({ status: 400, count: 100, more: undefined });
  });
});
