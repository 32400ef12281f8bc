// Whatever a client sends outside the body — query strings, headers, cookies, encodings, raw HTTP — never a 5xx or a
// leak.
import { expect } from 'chai';
import { request } from 'node:http';
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { rawHttp } from '../support/raw-http.ts';
import { tokenFor } from '../support/tokens.ts';
import { seededRandom, pick, leak, type Random } from '../support/seeded-random.ts';

const resources = ['timezone', 'vessel', 'sighting'];
const parameters = ['limit', 'after', 'version', 'sightingId', 'vesselId', 'timezoneId', 'sightingDate', 'sightingMemo',
  'sightingTimezone', 'timezoneName', 'mine', 'x', ''];
const numbers = ['0', '-0', '1', '1001', 'Infinity', '-Infinity', 'NaN', '1e309', '-1e309', '1e3', '0x10', '0b1', '1.0',
  '1.5', '+5', '%205', '9'.repeat(30), '-9007199254740992', '9007199254740991'];
const texts = ['', '%', '%ZZ', '%E0%A4%A', '%00', '%EF%BB%BFab', '%ED%A0%80', 'a%2Fb', '0000-01-01T00:00',
  '9999-12-31T23:59:59.999', '2026-02-30T10:00', 'Europe/Berlin', '%F0%9F%98%80'.repeat(20), 'x'.repeat(3000)];
// Header sections stay below HEADER_LIMIT (16 KiB) here; above it is oversized-requests.test.ts's 431.
const headerValues = ['', '*', '*/*', 'text/xml', 'application/json; charset=utf-16', 'text/html', 'de', 'de;q=0',
  'xx;q=abc, de;q=2', '"0"', 'W/"1"', '*, "x"', 'return=representation', 'gzip', 'x'.repeat(3000), 'ü', '%E0%A4%A'];
const headerNames = ['Accept', 'Accept-Language', 'If-Match', 'If-None-Match', 'Prefer', 'Content-Type',
  'Idempotency-Key', 'X-Forwarded-Proto', 'X-Forwarded-Host', 'Range'];

describe('no server errors outside the body', () => {
  let service: TestService;
  let token: string;
  before(async () => {
    service = await sharedService();
    token = await tokenFor(service.realm, 'admin');
  });

  async function expectNoServerError(response: Response, what: string): Promise<void> {
    const text = await response.text();
    expect(response.status, `${what} → ${response.status} ${text.slice(0, 200)}`).to.be.below(500);
    expect(text, what).to.not.match(leak);
  }

  const query = (next: Random) => Array.from({ length: 1 + Math.floor(next() * 3) },
    () => `${pick(next, parameters)}=${pick(next, next() < 0.5 ? numbers : texts)}`).join('&');

  for (const seed of [1, 2, 3]) {
    it(`when 60 random query strings (seed ${seed}) go to every list, then none is a 5xx or leaks`, async () => {
      const next = seededRandom(seed);
      for (let i = 0; i < 60; i += 1) {
        const path = `/${pick(next, resources)}?${query(next)}`;
        await expectNoServerError(await rawRequest(service, 'GET', path, { user: 'admin' }), path);
      }
    });

    it(`when 60 requests with random headers and cookies (seed ${seed}) go to every operation, ` +
      `then none is a 5xx or leaks`, async () => {
      const next = seededRandom(seed + 100);
      for (let i = 0; i < 60; i += 1) {
        const resource = pick(next, resources);
        const [method, path] = pick(next, [['GET', `/${resource}`], ['GET', `/${resource}/-1`],
          ['POST', `/${resource}/qbe`], ['PUT', `/${resource}/-2`], ['DELETE', `/${resource}/0`]] as const);
        const headers: Record<string, string> = Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 4) },
          () => [pick(next, headerNames), pick(next, headerValues)]));
        const language = pick(next, ['de', '%E0%A4%A', '%', '%ZZ', 'de%', '', 'x'.repeat(1000)]);
        headers.Cookie = `i18next=${language}${next() < 0.3 ? '; i18next=en' : ''}`;
        const body = method === 'GET' || method === 'DELETE' ? undefined
          : pick(next, ['{}', '{"version":0}', '', '<x/>', '{']);
        const what = `${method} ${path} ${JSON.stringify(headers).slice(0, 300)}`;
        await expectNoServerError(await rawRequest(service, method, path, { user: 'admin', headers, body }), what);
      }
    });

    it(`when 40 bodies with random encodings and charsets (seed ${seed}) are created, ` +
      `then none is a 5xx or leaks`, async () => {
      const next = seededRandom(seed + 200);
      const encoders: Record<string, (b: Buffer) => Buffer> =
        { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync, identity: (b) => b };
      for (let i = 0; i < 40; i += 1) {
        const plain = Buffer.from(pick(next, ['{"timezoneName":"Fuzz/Enc"}', '{"vesselName":{"en":"Fuzz"}}',
          '<vessel><vesselName><text xml:lang="en">x</text></vesselName></vessel>', '', '{']));
        const claimed = pick(next, ['gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip', 'GZIP', '']);
        // The body really encoded as claimed, encoded otherwise, or not at all.
        const actual = pick(next, ['gzip', 'deflate', 'br', 'identity']);
        const bytes = next() < 0.5 && claimed in encoders ? encoders[claimed]!(plain) : encoders[actual]!(plain);
        const type =
          pick(next, ['application/json', 'application/json; charset=utf-16', 'application/json; charset=latin1',
            'text/xml', 'text/xml; charset=utf-8', 'application/xml', 'text/plain', 'application/merge-patch+json']);
        const path = `/api/${pick(next, resources)}${next() < 0.5 ? '/qbe' : ''}`;
        const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
          const sent = request(`${service.url}${path}`, {
            method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': type,
              ...(claimed && { 'Content-Encoding': claimed }) },
          }, (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; })
              .on('end', () => resolve({ status: response.statusCode!, text }));
          }).on('error', reject);
          sent.end(bytes);
        });
        const what = `POST ${path} ${type} claimed ${claimed} → ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, what).to.be.below(500);
        expect(answer.text, what).to.not.match(leak);
      }
    });

    it(`when 40 raw HTTP requests (seed ${seed}) bend the protocol, ` +
      `then each is answered below 500 without a leak, or closed cleanly`, async () => {
      const next = seededRandom(seed + 300);
      for (let i = 0; i < 40; i += 1) {
        const method = pick(next,
          ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'CONNECT', 'BREW', 'get', '']);
        const path = pick(next, ['/api/sighting', '/api/sighting/-1', '/api/vessel/qbe', '/api/%', '/api/sighting/%E0%A4%A', '/api/sighting?limit=1e309', '/health/ready', '*', 'http://x/api/sighting', '/api/sighting/\x00', '/api/' + 'a'.repeat(9000), '/realms/sighting/protocol/openid-connect/token']);
        const version = pick(next, ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', 'FOO']);
        const authorization = pick(next,
          [`Bearer ${token}`, `Bearer ${token}.`, 'Bearer', 'Basic eDp5',
            `Bearer ${token}\r\nAuthorization: Bearer ${token}`]);
        const lines = [`${method} ${path} ${version}`, 'Host: 127.0.0.1', `Authorization: ${authorization}`];
        const body = pick(next, ['', '{}', '{"timezoneName":"Raw/Zone"}',
          '<timezone><timezoneName>Raw</timezoneName></timezone>', '\xff\xfe{']);
        const framing = pick(next, [
          `Content-Length: ${Buffer.byteLength(body, 'latin1')}`,
          `Content-Length: ${Buffer.byteLength(body, 'latin1') + 5}`, 'Content-Length: -1', 'Content-Length: 1, 2',
          `Content-Length: 0\r\nContent-Length: ${body.length}`, 'Transfer-Encoding: chunked',
          'Transfer-Encoding: chunked\r\nContent-Length: 3', 'Transfer-Encoding: gzip', '',
        ]);
        const extra = pick(next, ['Content-Type: application/json', 'Content-Type: text/xml',
          'Cookie: i18next=%E0%A4%A', 'Folded: a\r\n b', 'NoColon', 'Bad Name: x', 'X: \x00', 'Accept: text/xml',
          `X-Big: ${'b'.repeat(20000)}`, 'Expect: 100-continue', '']);
        const payload = framing.startsWith('Transfer-Encoding: chunked')
          ? `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n` : body;
        const text =
          `${[...lines, framing, extra, 'Connection: close'].filter(Boolean).join('\r\n')}\r\n\r\n${payload}`;
        const answer = await rawHttp(service.url, Buffer.from(text, 'latin1'), 5000);
        const what =
          `${JSON.stringify(text.slice(0, 300))} → ${answer.status} ${answer.ending} ${answer.body.slice(0, 200)}`;
        if (answer.status !== undefined) expect(answer.status, what).to.be.below(500);
        expect(answer.body, what).to.not.match(leak);
        expect(answer.ending, what).to.be.oneOf(['close', 'timeout']);
      }
    });
  }
});
