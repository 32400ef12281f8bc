// The web page at `/` is revalidated (an ETag, 304 on If-None-Match), and the docs page's Swagger UI bundle (1.7 MB)
// is compressed once and kept: sent whole with its Content-Length, not compressed again as it streams.
import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { eventually } from '../support/condition.ts';
import { sharedService, type TestService } from '../support/service.ts';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

describe('the web page and the docs bundle: revalidated, compressed once', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** node:http, which hands over the bytes as they travelled and sends no Accept-Encoding of its own. */
  function send(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      request(new URL(`${service.url}${path}`), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
          .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
  }

  it('when / is asked again with its ETag, then 304 with no body; another tag gets the page', async () => {
    const first = await send('/', { 'Accept-Encoding': 'br' });
    expect([first.status, first.headers['cache-control']]).to.deep.equal([200, 'no-cache']);
    const etag = String(first.headers.etag);
    expect(etag).to.match(/^(W\/)?"[\w-]+"$/);

    const again = await send('/', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect([again.status, again.body.length, again.headers.etag]).to.deep.equal([304, 0, etag]);
    const other = await send('/', { 'Accept-Encoding': 'br', 'If-None-Match': 'W/"someOtherText"' });
    expect(other.status).to.equal(200);
    // The build's brotli copy; the page as it is where a build made none.
    const text = other.headers['content-encoding'] === 'br' ? brotliDecompressSync(other.body) : other.body;
    expect(text.toString()).to.match(/^<!doctype html>/i);
  });

  it('when the docs page\'s Swagger UI bundle is asked twice with br accepted, ' +
    'then both answers are the same bytes made once, with Content-Length and a content ETag', async function () {
    const page = (await send('/docs')).body.toString();
    const bundle = /src="([^"]+\/swagger-ui-bundle\.js)"/.exec(page)?.[1];
    expect(bundle, 'the bundle named by /docs').to.be.a('string');
    // The first visit starts the compression and is answered as before; soon every answer is the one made once.
    const first = await eventually(async () => {
      const answer = await send(bundle!, { 'Accept-Encoding': 'gzip, br' });
      return answer.headers['content-length'] && answer.headers['content-encoding'] === 'br' ? answer : undefined;
    }, { what: 'the bundle compressed once' });
    const second = await send(bundle!, { 'Accept-Encoding': 'gzip, br' });

    const plain = readFileSync(createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js'));
    expect([first.status, first.headers['content-encoding']]).to.deep.equal([200, 'br']);
    // A compressor working per request streams its output (chunked): an answer made beforehand has its length.
    expect(first.headers['content-length']).to.equal(String(first.body.length));
    expect(first.headers['transfer-encoding']).to.equal(undefined);
    expect(first.headers.etag).to.match(/^W\/"[\w-]{27}"$/);
    expect([second.body.equals(first.body), second.headers.etag]).to.deep.equal([true, first.headers.etag]);
    expect(brotliDecompressSync(first.body).equals(plain)).to.equal(true);
    expect(first.body.length).to.be.lessThan(plain.length / 3);
    const again = await send(bundle!, { 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
    expect([again.status, again.body.length]).to.deep.equal([304, 0]);
  });
});
