// Answers of 1 KB and more come compressed as Accept-Encoding asks (brotli, gzip), with Vary; event streams never are.
import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sharedService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

describe('compression', () => {
  let service: TestService;
  let vesselId: number;
  before(async () => {
    service = await sharedService();
    vesselId = await createVessel(service);
    // Twenty list rows are well over 1 KB of JSON.
    for (let i = 0; i < 20; i++) await createSighting(service, buildSighting({ vessel: { vesselId } }));
  });

  /** One GET with node:http, which (unlike fetch) hands over the bytes as they travelled. */
  async function get(path: string, { token, ...headers }: Record<string, string>): Promise<Answer> {
    const url = new URL(`${service.api}${path}`);
    return new Promise((resolve, reject) => {
      request(url, { headers: { Authorization: `Bearer ${token}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
          .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
  }

  it('when a list over 1 KB is asked with br or gzip accepted, ' +
    'then it comes in the coding preferred, with Vary, and decodes to the same JSON', async () => {
    const token = await tokenFor(service.realm, 'alice');
    const plain = await get(`/sighting?vesselId=${vesselId}`, { token, 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.body.length).to.be.greaterThan(1024);
    const brotli = await get(`/sighting?vesselId=${vesselId}`, { token, 'Accept-Encoding': 'gzip, br' });
    expect(brotli.status).to.equal(200);
    expect(brotli.headers['content-encoding']).to.equal('br');
    expect(brotli.headers.vary).to.match(/Accept-Encoding/i);
    expect(JSON.parse(brotliDecompressSync(brotli.body).toString())).to.deep.equal(JSON.parse(plain.body.toString()));
    expect(brotli.body.length).to.be.lessThan(plain.body.length);
    const gzip = await get(`/sighting?vesselId=${vesselId}`, { token, 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).to.equal('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).to.deep.equal(JSON.parse(plain.body.toString()));
  });

  it('when a list is asked without Accept-Encoding, then it comes as it is, saying it varies by Accept-Encoding',
    async () => {
      const token = await tokenFor(service.realm, 'alice');
      const plain = await get(`/sighting?vesselId=${vesselId}`, { token });
      expect(plain.status).to.equal(200);
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.headers.vary).to.match(/Accept-Encoding/i);
      expect(JSON.parse(plain.body.toString())).to.have.length.greaterThanOrEqual(20);
    });

  it('when a query by example finds one record with gzip and br accepted, ' +
    'then the list comes whole, with its length and not compressed', async () => {
    const token = await tokenFor(service.realm, 'alice');
    const memo = unique('whole');
    const id = await createSighting(service, buildSighting({ sightingMemo: memo, vessel: { vesselId } }));
    const answer = await new Promise<Answer>((resolve, reject) => {
      request(new URL(`${service.api}/sighting/qbe`), { method: 'POST', headers: { Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json', 'Accept-Encoding': 'gzip, br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
          .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject).end(JSON.stringify({ sightingMemo: memo }));
    });
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-encoding']).to.equal(undefined);
    expect(answer.headers['transfer-encoding']).to.equal(undefined);
    expect(answer.headers['content-length']).to.equal(String(answer.body.length));
    expect((JSON.parse(answer.body.toString()) as Array<{ sightingId: number }>).map((s) => s.sightingId))
      .to.deep.equal([id]);
  });

  it('when an answer is under 1 KB, then it is sent as it is', async () => {
    const token = await tokenFor(service.realm, 'alice');
    const small = await get(`/vessel/${vesselId}`, { token, 'Accept-Encoding': 'gzip, br' });
    expect(small.status).to.equal(200);
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(small.body.toString())).to.include({ vesselId });
  });

  it('when the change feed is opened accepting gzip and br, ' +
    'then it is not compressed and each event arrives as it happens', async () => {
    const token = await tokenFor(service.realm, 'alice');
    const controller = new AbortController();
    const url = new URL(`${service.api}/sighting/events?vesselId=${vesselId}`);
    let received = '';
    const opened = new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      request(url, { signal: controller.signal, headers: { Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, br',
        Authorization: `Bearer ${token}` } }, (res) => {
        res.setEncoding('utf8').on('data', (chunk: string) => { received += chunk; }).on('error', () => undefined);
        resolve(res.headers);
      }).on('error', (error) => { if (!controller.signal.aborted) reject(error); }).end();
    });
    try {
      const headers = await opened;
      expect(headers['content-type']).to.equal('text/event-stream; charset=utf-8');
      expect(headers['content-encoding']).to.equal(undefined);
      const id = await createSighting(service, buildSighting({ vessel: { vesselId } }));
      // A buffering compressor would hold the one small event back: the stream stays open, so only a flushed event
      // arrives.
      while (!received.includes('event: created')) await new Promise((resolve) => setImmediate(resolve));
      expect(received).to.include(`"id":${id}`);
    } finally {
      controller.abort();
    }
  });
});
