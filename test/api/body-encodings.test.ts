// Bodies whose bytes or framing are not what their headers say: a clear 4xx, nothing stored, never a 500.
import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting } from '../support/fixtures.ts';
import { rawHttp } from '../support/raw-http.ts';

const utf8Required = { general: 'The request body must be encoded in UTF-8.' };
const notUtf8 = { body: { message: 'The request body must be encoded in UTF-8.', key: 'error.utf8' } };
const malformedBody = { body: { message: 'The request body is not well-formed.', key: 'error.malformedBody' } };

describe('body encodings', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** Sends bytes as they are (fetch would re-encode a string), and answers status and parsed body. */
  async function send(path: string, headers: Record<string, string>,
    body?: Buffer): Promise<{ status: number; body: unknown }> {
    const token = await tokenFor(service.realm, 'alice');
    return new Promise((resolve, reject) => {
      const sent = request(`${service.api}${path}`,
        { method: 'POST', headers: { Authorization: `Bearer ${token}`, ...headers } }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; })
          .on('end', () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : undefined }));
      }).on('error', reject);
      sent.end(body);
    });
  }

  async function memoCount(memo: string): Promise<number> {
    const response = await rawRequest(service, 'GET', `/sighting?sightingMemo=${encodeURIComponent(memo)}`);
    return (await response.json() as unknown[]).length;
  }

  it('when a JSON body says Content-Encoding gzip but is plain, ' +
    'then 400 malformed body and nothing is stored', async () => {
    const sighting = buildSighting();
    const answer = await send('/sighting', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      Buffer.from(JSON.stringify(sighting)));
    expect(answer).to.deep.equal({ status: 400, body: malformedBody });
    expect(await memoCount(sighting.sightingMemo)).to.equal(0);
  });

  it('when a JSON body says Content-Encoding br or deflate but is plain, then 400 malformed body', async () => {
    for (const encoding of ['br', 'deflate']) {
      expect(await send('/sighting', { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        Buffer.from('{}'))).to.deep.equal({ status: 400, body: malformedBody });
    }
  });

  it('when a JSON body really is gzip, then it is read', async () => {
    const sighting = buildSighting();
    const answer = await send('/sighting', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      gzipSync(JSON.stringify(sighting)));
    expect(answer.status).to.equal(201);
    expect(await memoCount(sighting.sightingMemo)).to.equal(1);
  });

  for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1']) {
    it(`when JSON is declared charset=${charset}, then 415 saying UTF-8`, async () => {
      const answer = await send('/sighting', { 'Content-Type': `application/json; charset=${charset}` },
        Buffer.from(JSON.stringify(buildSighting()), 'utf16le'));
      expect(answer).to.deep.equal({ status: 415, body: utf8Required });
    });
  }

  it('when JSON holds bytes that are not UTF-8, then 400 saying UTF-8, not a memo with U+FFFD', async () => {
    const sighting = buildSighting();
    const bytes = Buffer.concat([Buffer.from(`{"sightingMemo":"${sighting.sightingMemo}`),
      Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('","vessel":{"vesselId":-1}}')]);
    expect(await send('/sighting', { 'Content-Type': 'application/json' }, bytes))
      .to.deep.equal({ status: 400, body: notUtf8 });
    expect(await memoCount(`${sighting.sightingMemo}\ufffd\ufffd\ufffd`)).to.equal(0);
  });

  it('when a JSON string escapes a lone surrogate, then 400 on that field', async () => {
    const body = Buffer.from('{"sightingMemo":"lone \\ud800 surrogate","vessel":{"vesselId":-1}}');
    expect(await send('/sighting', { 'Content-Type': 'application/json' }, body)).to.deep.equal({
      status: 400, body: { sightingMemo: { message: 'The text holds a lone UTF-16 surrogate, which is no character.',
        key: 'error.field.loneSurrogate' } },
    });
  });

  it('when a field begins with U+FEFF, then 400 on that field, never the text without it', async () => {
    const body = Buffer.from(JSON.stringify({ vesselName: { en: '\ufeffa', de: 'ok' } }));
    expect(await send('/vessel/qbe', { 'Content-Type': 'application/json' }, body)).to.deep.equal({
      status: 400, body: { 'vesselName.en': { message: 'The text must not begin with a byte order mark (U+FEFF).',
        key: 'error.field.byteOrderMark' } },
    });
    const memo = Buffer.from('{"sightingMemo":"\\ufeffa","vessel":{"vesselId":-1}}');
    expect(await send('/sighting', { 'Content-Type': 'application/json' }, memo)).to.deep.equal({
      status: 400, body: { sightingMemo: { message: 'The text must not begin with a byte order mark (U+FEFF).',
        key: 'error.field.byteOrderMark' } },
    });
  });

  it('when a U+FEFF sits inside a text, then it is kept as sent', async () => {
    const sighting = buildSighting({ sightingMemo: `${buildSighting().sightingMemo}\ufeffinside` });
    expect((await send('/sighting', { 'Content-Type': 'application/json' },
      Buffer.from(JSON.stringify(sighting)))).status).to.equal(201);
    expect(await memoCount(sighting.sightingMemo)).to.equal(1);
  });

  describe('a POST with neither Content-Length nor Transfer-Encoding (RFC 9112 §6.3: an empty body)', () => {
    const post = async (contentType: string) => {
      const token = await tokenFor(service.realm, 'alice');
      const { pathname, host } = new URL(`${service.api}/sighting/qbe`);
      return rawHttp(service.url, `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: ${contentType}\r\nConnection: close\r\n\r\n`);
    };

    it('when it is JSON, then it is the empty example {} and every sighting matches', async () => {
      const answer = await post('application/json');
      const unchunked = answer.body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, '');
      expect({ status: answer.status, first: (JSON.parse(unchunked) as Array<{ sightingId: number }>)[0]?.sightingId })
        .to.deep.equal({ status: 200, first: -1 });
    });

    it('when it is XML, then it is an empty document: 400 on the body', async () => {
      const answer = await post('text/xml');
      expect({ status: answer.status, body: JSON.parse(answer.body) })
        .to.deep.equal({ status: 400, body: malformedBody });
    });
  });
});
