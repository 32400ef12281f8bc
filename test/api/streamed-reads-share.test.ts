// Streamed reads share a part of the pool: many whole lists, and clients that never read them, leave reads of one
// record answered; a list whose client pauses gives its place back and reads on exactly where it was.
import { expect } from 'chai';
import { get } from 'node:http';
import type { Socket } from 'node:net';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { poolConnections, samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';
import { neverRead } from '../support/leaving-clients.ts';
import type { StreamShare } from '../../src/db/stream-share.ts';

const shareOf = (service: TestService) => service.web.app!.locals.streamShare as StreamShare;

describe(`streamed reads within the pool's share (${backend})`, function () {
  this.timeout(300_000);
  // Some 6 MB of list: more than the sockets between server and client buffer (on loopback up to some 4 MB).
  const records = 60_000;
  let service: TestService;
  let headers: Record<string, string>;
  let total: number;
  before(async () => {
    // Four connections, two of them for streamed reads; a stalled client is never cut off during the test.
    service =
      await startService({ DB_POOL_MAX: '4', STREAM_WRITE_TIMEOUT_MS: '600000', STREAM_IDLE_RELEASE_MS: '300' });
    headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
    // The inserted rows and the demo records.
    total = records + (await (await fetch(`${service.api}/sighting`, { headers })).json() as unknown[]).length;
    await bulkInsert(service, records, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select 'shared ' || g, -1 from generate_series(${first}, ${last}) g`);
  });
  after(async () => { await service?.stop(); });

  const readById = async () => (await fetch(`${service.api}/sighting/-1`, { headers })).status;

  it('when 50 clients read whole lists at once, ' +
    'then reads by id are answered and each list is whole or a 503 with Retry-After', async () => {
    let listing = true;
    const probes: number[] = [];
    const probing = (async () => {
      while (listing) probes.push(await readById());
    })();
    const lists = await Promise.all(Array.from({ length: 50 }, async () => {
      const response = await fetch(`${service.api}/sighting`, { headers: { ...headers, 'Accept-Language': 'de' } });
      const body = await response.json() as unknown;
      return { status: response.status, retryAfter: response.headers.get('Retry-After'), body };
    })).finally(() => { listing = false; });
    await probing;
    expect(probes.length).to.be.greaterThan(0);
    expect(probes.filter((status) => status !== 200)).to.deep.equal([]);
    const whole = lists.filter(({ status }) => status === 200);
    expect(whole.length).to.be.greaterThan(0);
    for (const { body } of whole) expect((body as unknown[]).length).to.equal(total);
    const refused = lists.filter((list) => list.status !== 200);
    // The queue holds 4 reads per place; the rest are told at once when a place is expected: whole lists of 60,000
    // rows hold theirs far longer than the second the hint once always said.
    expect(refused.length).to.be.at.least(50 - shareOf(service).places - shareOf(service).maxWaiting - whole.length);
    expect(refused.some(({ retryAfter }) => Number(retryAfter) > 1), 'a hint beyond one second').to.equal(true);
    for (const { status, retryAfter, body } of refused) {
      expect(status).to.equal(503);
      expect(retryAfter).to.match(/^[1-9]\d*$/);
      expect(Number(retryAfter)).to.be.at.most(300);
      expect(body).to.deep.equal(
        { general: 'Auf dieser Instanz laufen zu viele lange Lesevorgänge; bitte gleich noch einmal versuchen.' });
    }
    await eventually(() => shareOf(service).held === 0);
  });

  it('when 10 clients never read a whole list, ' +
    'then their places and connections are given back before they are cut off, and reads are answered', async () => {
    const inFlight = async () => (await samples(service.url, 'http_requests_in_flight')).get('') ?? 0;
    const quiet = await inFlight();
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 10; i++) sockets.push(neverRead(service.url, { path: '/api/sighting', headers }));
      await eventually(async () => await inFlight() >= quiet + 10);
      // Each has read until its client's buffers were full, then let go while its client stayed (one that found no
      // place in time was answered 503, and is no longer in flight).
      await eventually(() => shareOf(service).held === 0);
      if (backend === 'postgresql') await eventually(async () => (await poolConnections(service.url)).used === 0);
      expect(await inFlight()).to.be.greaterThan(quiet);
      expect((await samples(service.url, 'streamed_reads')).get('{state="holding"}')).to.equal(0);
      const reads = await Promise.all(Array.from({ length: 8 }, readById));
      expect(reads).to.deep.equal(Array(8).fill(200));
      const list = await fetch(`${service.api}/sighting`, { headers });
      expect(list.status).to.equal(200);
      expect((await list.json() as unknown[]).length).to.equal(total);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  /** Reads a whole list, pausing after its first bytes until the list has given its place back. */
  function readWithPause(path: string): Promise<Array<{ sightingId: number }>> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(service.url);
      get({ hostname, port, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        let paused = false;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (paused) return;
          paused = true;
          response.pause();
          void eventually(async () => shareOf(service).held === 0
            && (backend === 'pglite' || (await poolConnections(service.url)).used === 0)).then(() => response.resume());
        });
        response.on('end',
          () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as Array<{ sightingId: number }>));
        response.on('error', reject);
      }).on('error', reject);
    });
  }

  it('when a client pauses a whole list until its place is given back, then reads on, ' +
    'then it gets every row once, in order', async () => {
    const rows = await readWithPause('/api/sighting');
    expect(rows.length).to.equal(total);
    const ids = rows.map(({ sightingId }) => sightingId);
    expect(ids.every((id, at) => at === 0 || id > ids[at - 1]!)).to.equal(true);
  });

  it('when a client pauses a list sorted by a field the same way, ' +
    'then it gets every row once, in that order', async () => {
    const rows = await readWithPause('/api/sighting?sort=-sightingDate');
    const expected = await (await fetch(`${service.api}/sighting?sort=-sightingDate`,
      { headers })).json() as Array<{ sightingId: number }>;
    expect(rows.map(({ sightingId }) => sightingId)).to.deep.equal(expected.map(({ sightingId }) => sightingId));
    expect(new Set(rows.map(({ sightingId }) => sightingId)).size).to.equal(total);
  });
});
