// A batch's bounds and repeats: 413 past its records or bytes, Idempotency-Key replayed or refused, a client that
// leaves half-way through its body: none stores anything it should not.
import { expect } from 'chai';
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { backend, startService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting, unique } from '../support/fixtures.ts';

describe(`batch import bounds and repeats (${backend})`, function () {
  this.timeout(120_000);
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

  it('when a client leaves half-way through its batch body, then nothing is stored and the service answers at once',
    async () => {
      const memo = unique('leaves');
      const body = JSON.stringify([buildSighting({ sightingMemo: memo }), buildSighting({ sightingMemo: memo })]);
      const { hostname, port } = new URL(service.url);
      const socket = connect(Number(port), hostname);
      socket.on('error', () => { /* the server may reset the half-sent request */ });
      const closed = new Promise((resolve) => socket.once('close', resolve));
      // The server has the request (its headers, and the half of its body sent with them) when it emits `request`.
      const received = new Promise((resolve) => service.web.server.once('request', resolve));
      socket.write(`POST /api/sighting/batch HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n`
        + `Authorization: Bearer ${await tokenFor(service.realm, 'alice')}\r\n`
        + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, body.length / 2)}`);
      await received;
      socket.destroy();
      await closed;
      const answer = await rawRequest(service, 'GET', '/sighting/-1');
      expect(answer.status).to.equal(200);
      expect(await stored(memo)).to.equal(0);
    });
});
