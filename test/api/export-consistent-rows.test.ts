// A whole list is one consistent set of rows (docs/api.md#one-consistent-set-of-rows): a client that pauses while rows
// change, sorted by a field they change, gets no row twice and misses none that existed for the whole answer.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { request } from 'node:http';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';
import { ndjsonLines } from '../support/api-client.ts';

/** A list being read that the test pauses: `resume` reads the rest and gives the whole body. */
interface PausedList {
  resume(): Promise<string>;
}

/** Asks for `path` and reads its answer until `bytes` have come, then stops reading (the socket's buffers fill). */
function readUntilPaused(url: string, path: string, headers: Record<string, string>,
  bytes: number): Promise<PausedList> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let read = 0;
    let paused = false;
    request(`${url}${path}`, { headers }, (res) => {
      const ended = new Promise<string>((done, failed) => {
        res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
        res.on('error', failed);
      });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        read += chunk.length;
        if (read < bytes || paused) return;
        paused = true;
        res.pause();
        resolve({ resume: () => { res.resume(); return ended; } });
      });
    }).on('error', reject).end();
  });
}

describe(`a whole list as one consistent set of rows (${backend})`, function () {
  this.timeout(240_000);
  // Some 6 MB as JSON, 4 MB as CSV: more than the sockets between server and client buffer.
  const records = 60_000;
  let service: TestService;
  let reader: Record<string, string>;
  let admin: Record<string, string>;
  before(async () => {
    // Well above the pause: the client is slow, not gone.
    service = await startService({ STREAM_WRITE_TIMEOUT_MS: '60000' });
    // Each its own minute, so `sort=sightingDate` has one order; the ids are in the same order.
    await bulkInsert(service, records, (first, last) => `insert into sighting (sighting_memo, vessel_id, sighting_date)
      select 'consistent ' || g, -1, timestamp '2026-01-01 00:00' + g * interval '1 minute'
      from generate_series(${first}, ${last}) g`);
    reader = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
    admin = { Authorization: `Bearer ${await tokenFor(service.realm, 'admin')}` };
  });
  after(async () => { await service?.stop(); });

  const streamedReads = async () => [...(await samples(service.url, 'streamed_reads')).values()]
    .reduce((sum, value) => sum + value, 0);

  /** The ids of the list as JSON (`query` e.g. `sort=sightingDate&limit=1`), read whole while nothing changes. */
  async function ids(query: string): Promise<number[]> {
    const response = await fetch(`${service.api}/sighting?${query}`, { headers: reader });
    return (await response.json() as { sightingId: number }[]).map((row) => row.sightingId);
  }

  /** Sets a sighting's date (as admin, by merge patch) and gives the date it had. */
  async function moveDate(sightingId: number, sightingDate: string | null): Promise<string | null> {
    const current = await fetch(`${service.api}/sighting/${sightingId}`, { headers: admin });
    const before = (await current.json() as { sightingDate: string | null }).sightingDate;
    const response = await fetch(`${service.api}/sighting/${sightingId}`, { method: 'PATCH', body: JSON.stringify({
      sightingDate }), headers: { ...admin, 'Content-Type': 'application/merge-patch+json',
      'If-Match': current.headers.get('etag')! } });
    expect(response.status, await response.text()).to.equal(204);
    return before;
  }

  interface Row { sightingId: number; sightingDate: string | null }
  /**
   * JSON and JSON lines read the rows as they are when read: the row moved before it was read comes with its new date.
   * CSV on PostgreSQL is one COPY, read whole into the spool before the rows changed (the wait for the read to let
   * go): its rows are the snapshot's, the moved row with its old date. CSV on PGlite is read as JSON is, its short
   * rows often all in the sockets' buffers before the pause, so which date it shows is not asserted there.
   */
  const formats: Record<string, { rowsOf(body: string): Row[]; moved?: 'new' | 'old' }> = {
    'application/json': { rowsOf: (body) => JSON.parse(body) as Row[], moved: 'new' },
    'application/x-ndjson': { rowsOf: (body) => ndjsonLines(body) as Row[], moved: 'new' },
    'text/csv': {
      rowsOf: (body) => (parse(body, { columns: true }) as Record<string, string>[]).map((row) => ({
        sightingId: Number(row.sightingId), sightingDate: row.sightingDate || null })),
      moved: backend === 'postgresql' ? 'old' : undefined,
    },
  };

  for (const [accept, { rowsOf, moved }] of Object.entries(formats)) {
    it(`when a client of the list sorted by date (${accept}) pauses for 3 s while a row it was sent moves to the end ` +
      'and one it was not sent moves to the start, then it gets every row once', async () => {
      const all = await ids('');
      const [sent] = await ids('sort=sightingDate&limit=1');
      const [unsent] = await ids('sort=-sightingDate&limit=1');
      const paused = await readUntilPaused(service.url, '/api/sighting?sort=sightingDate',
        { ...reader, Accept: accept }, 256 * 1024);
      const pausedAt = Date.now();
      // The read has let go its place (and on PostgreSQL its connection): the client is idle past the bound.
      await eventually(async () => await streamedReads() === 0, { what: 'the paused read let go' });
      const sentDate = await moveDate(sent!, '2027-01-01T00:00');
      const unsentDate = await moveDate(unsent!, '2025-01-01T00:00');
      try {
        // The scenario: a pause of 3 s in all.
        await eventually(() => Date.now() - pausedAt >= 3000, { what: '3 s of pause' });
        const rows = rowsOf(await paused.resume());
        const seen = new Set<number>();
        const twice = rows.map((row) => row.sightingId).filter((id) => seen.has(id) || !seen.add(id));
        expect(twice, 'rows sent twice').to.deep.equal([]);
        // Every row existed throughout, the two moved ones included.
        expect(all.filter((id) => !seen.has(id)), 'rows missing').to.deep.equal([]);
        expect(rows).to.have.length(all.length);
        // As read after the change (the pause held the answer back), or as the snapshot before it.
        if (moved) expect(rows.find((row) => row.sightingId === unsent)).to.have.property('sightingDate',
          moved === 'new' ? '2025-01-01T00:00:00.000' : unsentDate);
      } finally {
        // Back where they were, for the next format.
        await moveDate(sent!, sentDate);
        await moveDate(unsent!, unsentDate);
      }
    });
  }
});
