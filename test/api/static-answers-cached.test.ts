// The open documents (the contract, the changelog, the docs page and its script, the web page's settings) come
// compressed when asked, with an ETag of their text, revalidated each use, and a conditional request is a 304.
import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sharedService, type TestService } from '../support/service.ts';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

describe('static answers: compressed and cacheable', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** node:http, which (unlike fetch) hands over the bytes as they travelled and sends no Accept-Encoding of its own. */
  function send(method: 'GET' | 'HEAD', path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      request(new URL(`${service.url}${path}`), { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
          .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
  }

  it('when /openapi.yaml is asked with br accepted, ' +
    'then it comes as br with an ETag, no-cache and Vary, and decodes to the plain text', async () => {
    const plain = await send('GET', '/openapi.yaml');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.headers['content-type']).to.match(/^application\/yaml/);
    const brotli = await send('GET', '/openapi.yaml', { 'Accept-Encoding': 'gzip, br' });

    expect(brotli.status).to.equal(200);
    expect(brotli.headers['content-encoding']).to.equal('br');
    expect(brotli.headers.etag).to.match(/^W\/"[\w-]+"$/);
    expect(brotli.headers.etag).to.equal(plain.headers.etag);
    expect(brotli.headers['cache-control']).to.equal('no-cache');
    expect(brotli.headers.vary).to.match(/Accept-Encoding/i);
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).to.equal(true);
    // The 127 KB contract travels in a tenth of it.
    expect(brotli.body.length).to.be.lessThan(plain.body.length / 5);
    const gzip = await send('GET', '/openapi.yaml', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).to.equal(true);
  });

  it('when /openapi.yaml is asked by HEAD with br accepted (curl -I), ' +
    'then its headers say br and the ETag', async () => {
    const head = await send('HEAD', '/openapi.yaml', { 'Accept-Encoding': 'br' });

    expect(head.status).to.equal(200);
    expect(head.headers['content-encoding']).to.equal('br');
    expect(head.headers.etag).to.match(/^W\/"[\w-]+"$/);
    expect(head.body.length).to.equal(0);
  });

  for (const path of ['/openapi.yaml', '/docs', '/docs/docs-init.js', '/web-config.json', '/changelog.md']) {
    it(`when ${path} is asked again with its ETag in If-None-Match, ` +
      `then 304 with no body; another tag gets 200`, async () => {
      const first = await send('GET', path, { 'Accept-Encoding': 'br' });
      expect(first.status).to.equal(200);
      const etag = String(first.headers.etag);
      expect(etag).to.match(/^W\/"[\w-]+"$/);

      const again = await send('GET', path, { 'Accept-Encoding': 'br', 'If-None-Match': etag });
      expect(again.status).to.equal(304);
      expect(again.body.length).to.equal(0);
      expect(again.headers.etag).to.equal(etag);

      const other = await send('GET', path, { 'Accept-Encoding': 'br', 'If-None-Match': 'W/"someOtherText"' });
      expect(other.status).to.equal(200);
      expect(other.body.length).to.be.greaterThan(0);
    });
  }
});
