// The web page's files: compressed as the browser accepts (brotli, gzip, or not at all), hashed assets cached for a
// year, the page itself revalidated.
import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sharedService, type TestService } from '../support/service.ts';

interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** node:http rather than fetch: fetch would decode the body and hide what was sent. */
function rawGet(service: TestService, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    request(`${service.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end',
        () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

describe('web page files', () => {
  let service: TestService;
  let script: string;
  before(async () => {
    service = await sharedService();
    const page = await rawGet(service, '/');
    script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(page.body.toString())![1]!;
  });

  for (const [path, cacheControl] of [['/', 'no-cache'], ['/index.html', 'no-cache'],
    ['script', 'public, max-age=31536000, immutable']] as const) {
    it(`when ${path} is asked with each Accept-Encoding, then brotli when accepted at all (the smallest), else gzip, ` +
      `each decoding to the same bytes, cached as ${cacheControl}`, async () => {
      const at = path === 'script' ? script : path;
      const plain = await rawGet(service, at, { 'Accept-Encoding': 'identity' });
      const br = await rawGet(service, at, { 'Accept-Encoding': 'gzip, deflate, br;q=1.0, *;q=0.1' });
      const gzip = await rawGet(service, at, { 'Accept-Encoding': 'gzip;q=0.8, br;q=0' });
      const none = await rawGet(service, at);
      expect([plain, br, gzip, none].map((answer) =>
        [answer.status, answer.headers['content-encoding'], answer.headers['cache-control'], answer.headers.vary]))
        .to.deep.equal([
          [200, undefined, cacheControl, 'Accept-Encoding'], [200, 'br', cacheControl, 'Accept-Encoding'],
          [200, 'gzip', cacheControl, 'Accept-Encoding'], [200, undefined, cacheControl, 'Accept-Encoding'],
        ]);
      expect(gunzipSync(gzip.body).equals(plain.body)).to.equal(true);
      expect(plain.headers['content-type']).to.equal(br.headers['content-type'])
        .and.to.match(path === 'script' ? /javascript/ : /^text\/html/);
      const brotli = await rawGet(service, at, { 'Accept-Encoding': 'br' });
      expect([brotli.headers['content-encoding'], brotliDecompressSync(brotli.body).equals(plain.body)])
        .to.deep.equal(['br', true]);
      expect(brotli.body.length).to.be.lessThan(plain.body.length);
    });
  }

  it('when the page is revalidated with its Last-Modified, ' +
    'then 304 (it is no-cache, so browsers ask every time)', async () => {
    const first = await rawGet(service, '/', { 'Accept-Encoding': 'br' });
    const again = await rawGet(service, '/',
      { 'Accept-Encoding': 'br', 'If-Modified-Since': String(first.headers['last-modified']) });
    expect([first.status, again.status]).to.deep.equal([200, 304]);
  });

  it('when a path outside the page is asked, encoded or not, then 404, never a file from elsewhere', async () => {
    for (const path of ['/assets/../../package.json', '/assets/%2e%2e/%2e%2e/package.json', '/..%2fpackage.json',
      '/assets/nothing.js']) {
      const answer = await rawGet(service, path, { 'Accept-Encoding': 'br, gzip' });
      expect([path, answer.status]).to.deep.equal([path, 404]);
    }
  });
});
