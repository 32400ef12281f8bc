// A streamed list holds nothing once its client has gone or stopped reading
// (docs/behaviour.md#streams-and-clients-that-leave): its cursor is closed, its connection back in the pool, and a read
// by id is answered right after any number of such clients.
import { expect } from 'chai';
import type { Socket } from 'node:net';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { poolConnections, samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';
import { neverRead, readPartAndLeave, type Call } from '../support/leaving-clients.ts';

describe(`streamed lists and clients that leave (${backend}) @pgbouncer`, function () {
  // Some 6 MB of list: more than the sockets between server and client buffer (on loopback up to some 4 MB).
  const records = 60_000;
  let service: TestService;
  let headers: Record<string, string>;
  before(async () => {
    // A small pool, so a few leaked connections would already starve the reads. The stall bound is short, so the test
    // is quick, yet well above a loaded machine's event-loop delays: the reading clients share this process's loop
    // with the server, and a bound of 300 ms cut one that was reading as fast as the loop let it.
    service = await startService({ DB_POOL_MAX: '3', STREAM_WRITE_TIMEOUT_MS: '3000' });
    await bulkInsert(service, records, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select 'left behind ' || g, -1 from generate_series(${first}, ${last}) g`);
    headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
  });
  after(async () => { await service?.stop(); });

  const list: () => Call = () => ({ path: '/api/sighting', headers });
  // Compressed: the compressor between the answer and the socket keeps the back-pressure (src/http/compression.ts).
  // Sorted by a field: on PGlite its ids are read in that order first, then its rows (src/crud/read/row-stream.ts).
  const sortedList: () => Call = () => ({ path: '/api/sighting?sort=-sightingDate', headers });
  const queryByExample: () => Call = () => ({ method: 'POST', path: '/api/sighting/qbe',
    headers: { ...headers, 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, body: '{}' });

  // The export formats (docs/api.md#export) stream through the same writer.
  const csvList: () => Call = () => ({ path: '/api/sighting?view=detail',
    headers: { ...headers, Accept: 'text/csv' } });
  const ndjsonQuery: () => Call = () => ({ method: 'POST', path: '/api/sighting/qbe',
    headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/x-ndjson' }, body: '{}' });

  /** Connections of the primary's pool in use now (PostgreSQL; PGlite has no pool). */
  const poolInUse = async () => (await poolConnections(service.url)).used;
  const inFlight = async () => (await samples(service.url, 'http_requests_in_flight')).get('') ?? 0;

  async function expectReadByIdAnswered(): Promise<void> {
    const response = await fetch(`${service.api}/sighting/-1`, { headers });
    expect(response.status).to.equal(200);
  }

  it('when 12 clients close a list, 4 a sorted list, 12 a query by example and 4 each a CSV list and a JSON lines ' +
    'query after 64 KiB, then the pool is free and a read by id is answered', async () => {
    // One after the other, each once the instance has ended the one before and given its connection back (it hears of
    // a client's close on a later turn of its loop; on a loaded machine the next client came first and found the long
    // reads' share still taken, a 503): with three connections, the fourth would find none if any were still held.
    const quiet = await inFlight();
    const leave = async (call: () => Call) => {
      await readPartAndLeave(service.url, call(), 65_536);
      await eventually(async () => await inFlight() === quiet && await poolInUse() === 0);
    };
    for (let i = 0; i < 12; i++) await leave(list);
    for (let i = 0; i < 4; i++) await leave(sortedList);
    for (let i = 0; i < 12; i++) await leave(queryByExample);
    for (let i = 0; i < 4; i++) await leave(csvList);
    for (let i = 0; i < 4; i++) await leave(ndjsonQuery);
    await expectReadByIdAnswered();
  });

  // PGlite reads in this process, one statement at a time: two such clients already keep it busy for seconds.
  const stoppers = backend === 'postgresql' ? 6 : 1;
  it(`when ${4 * stoppers} clients stop reading a list or a query by example (JSON, CSV, JSON lines), ` +
    `then each is cut off after STREAM_WRITE_TIMEOUT_MS, the pool is free and a read by id is answered`, async () => {
    // The scrape is a request in flight itself.
    const quiet = await inFlight();
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < stoppers; i++)
        sockets.push(neverRead(service.url, list()), neverRead(service.url, queryByExample()),
          neverRead(service.url, csvList()), neverRead(service.url, ndjsonQuery()));
      await eventually(async () => await inFlight() > quiet);
      // Every one of them ended: nothing is answered any more, and nothing is held.
      await eventually(async () => await inFlight() === quiet);
      await eventually(async () => await poolInUse() === 0);
      await expectReadByIdAnswered();
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
