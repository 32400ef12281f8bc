// A batch's bounds and repeats: 413 past its records or bytes, Idempotency-Key replayed or refused, a client that
// leaves half-way through its body (in each format): none stores anything it should not, nor keeps a connection.
import { expect } from 'chai';
import { connect } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { backend, startService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting, unique } from '../support/fixtures.ts';
import { eventually } from '../support/condition.ts';
import { poolConnections } from '../support/scrape.ts';

describe(`batch import bounds and repeats (${backend})`, function () {
  let service: TestService;
  before(async () => { service = await startService({ BATCH_MAX_RECORDS: '5', BATCH_MAX_BYTES: '4kb' }); });
  after(async () => { await service?.stop(); });

  async function batch(body: string, headers: Record<string, string> = {}) {
    const response = await rawRequest(service, 'POST', '/sighting/batch',
      { body, headers: { 'Content-Type': 'application/json', ...headers } });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) as unknown : undefined };
  }

  const stored = async (memo: string) => (await (await rawRequest(service, 'GET',
    `/sighting?sightingMemo=${encodeURIComponent(memo)}`)).json() as unknown[]).length;

  it('when a batch holds one record more than BATCH_MAX_RECORDS, then 413 names the bound and nothing is stored',
    async () => {
      const memo = unique('bound');
      const six = Array.from({ length: 6 }, () => buildSighting({ sightingMemo: memo }));
      const answer = await batch(JSON.stringify(six));
      expect(answer).to.deep.equal({ status: 413, body: { general: 'A batch holds at most 5 records.' } });
      expect(await stored(memo)).to.equal(0);
      const five = await batch(JSON.stringify(Array.from({ length: 5 }, () => buildSighting({ sightingMemo: memo }))));
      expect(five.status).to.equal(201);
      expect(await stored(memo)).to.equal(5);
    });

  it('when a batch body is larger than BATCH_MAX_BYTES, then 413 and nothing is stored', async () => {
    const memo = unique('bytes');
    const answer = await batch(JSON.stringify([buildSighting({ sightingMemo: `${memo}${'x'.repeat(4100)}` })]));
    expect(answer).to.deep.equal({ status: 413, body: { general: 'The request body is too large.' } });
    expect(await stored(memo)).to.equal(0);
  });

  it('when a batch is sent again with its Idempotency-Key, then the first answer comes back and nothing more is ' +
    'stored; with another body, 422', async () => {
    const memo = unique('again');
    const body = JSON.stringify([buildSighting({ sightingMemo: memo }), buildSighting({ sightingMemo: memo })]);
    const key = `"${randomUUID()}"`;
    const first = await batch(body, { 'Idempotency-Key': key });
    expect(first.status).to.equal(201);
    expect(await batch(body, { 'Idempotency-Key': key })).to.deep.equal(first);
    expect(await stored(memo)).to.equal(2);
    const other = JSON.stringify([buildSighting({ sightingMemo: memo })]);
    expect(await batch(other, { 'Idempotency-Key': key })).to.deep.equal({ status: 422,
      body: { general: 'This Idempotency-Key was already used with another request.' } });
    expect(await stored(memo)).to.equal(2);
  });

  /** A batch of `count` sightings with `memo` in each format a batch is read in as it arrives. */
  const bodies: Record<string, (memo: string, count: number) => string> = {
    'application/json': (memo, count) =>
      JSON.stringify(Array.from({ length: count }, () => buildSighting({ sightingMemo: memo }))),
    'application/x-ndjson': (memo, count) => Array.from({ length: count },
      () => `${JSON.stringify(buildSighting({ sightingMemo: memo }))}\n`).join(''),
    'text/csv': (memo, count) => `sightingMemo,vessel.vesselId\r\n${`${memo},-1\r\n`.repeat(count)}`,
    'text/xml': (memo, count) => `<collection>${
      `<sighting><sightingMemo>${memo}</sightingMemo><vessel><vesselId>-1</vesselId></vessel></sighting>`.repeat(count)
    }</collection>`,
  };

  /**
   * Sends the request with the first half of `body` and leaves once the service's batch reader has taken that half (it
   * listens for the body's data and none is left unread): the whole records in it are read, the rest never comes.
   */
  async function leaveHalfWay(body: string, mediaType: string): Promise<void> {
    // First: a token's first request (to the embedded provider) is a request of this server too.
    const token = await tokenFor(service.realm, 'alice');
    const { hostname, port } = new URL(service.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => { /* the server may reset the half-sent request */ });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // The server has the request (its headers, and the half of its body sent with them) when it emits `request`.
    const received = new Promise<IncomingMessage>((resolve) => service.web.server.once('request', resolve));
    socket.write(`POST /api/sighting/batch HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ${mediaType}\r\n`
      + `Authorization: Bearer ${token}\r\n`
      + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, body.length / 2)}`);
    const req = await received;
    expect(`${req.method} ${req.headers['content-type']}`).to.equal(`POST ${mediaType}`);
    await eventually(() => req.listenerCount('data') > 0 && req.readableLength === 0,
      { what: `the ${mediaType} batch reader took the half body` });
    socket.destroy();
    await closed;
  }

  for (const mediaType of Object.keys(bodies)) {
    it(`when a client leaves half-way through its ${mediaType} batch body, then nothing is stored, every connection `
      + 'is back in the pool, and the same batch sent whole is stored once', async () => {
      const memo = unique('leaves');
      const body = bodies[mediaType]!(memo, 4);
      await leaveHalfWay(body, mediaType);
      // PostgreSQL's pool: none in use or waited for (PGlite has none: the batch after shows its database is free).
      // Not compared with a reading before: a list read just before may still be giving its connection back then.
      await eventually(async () => {
        const { used, waiting } = await poolConnections(service.url);
        return used === 0 && waiting === 0;
      }, { what: 'every connection back in the pool' });
      expect(await stored(memo)).to.equal(0);
      const whole = await batch(body, { 'Content-Type': mediaType });
      expect(whole.status, JSON.stringify(whole.body)).to.equal(201);
      expect(await stored(memo)).to.equal(4);
    });
  }
});
