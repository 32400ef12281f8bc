// An export written by the database (COPY, src/http/send-copied.ts) answers its status and header row once its
// transaction has begun, before the database writes a row (a sorted export writes its first only after sorting every
// row), compressed or not; a client that leaves before the rows lets the database go at once. The table locked against
// reads holds the rows back without a clock. PostgreSQL only: on PGlite the service writes the CSV itself.
import { expect } from 'chai';
import { get, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { TextDecoder } from 'node:util';
import pg from 'pg';
import { backend, startService, type TestService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { tokenFor } from '../support/tokens.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';

describe('an export\'s first bytes before its first row @pgbouncer', () => {
  let scratch: ScratchDatabase;
  let service: TestService;
  let locker: pg.Client;
  let direct: string;

  before(async function () {
    if (backend !== 'postgresql') return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    direct = scratch.env.DATABASE_DIRECT_URL ?? scratch.url;
    // Each wait for the database's bytes is bounded by the statement bound: far above what the steps below take.
    service = await startService({ ...scratch.env, DB_STATEMENT_TIMEOUT_MS: '600000' });
    locker = new pg.Client({ connectionString: direct });
    await locker.connect();
  });

  after(async () => {
    await locker?.end();
    await service?.stop();
    await scratch?.drop();
  });

  /** The exports' COPY statements that wait for the locker's lock. */
  const waitingCopies = async () => (await query<{ count: number }>(direct,
    `select count(*)::int as count from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like 'copy (%'`))[0]!.count;

  /** Runs `act` while the sighting table takes no reads (ACCESS EXCLUSIVE), released after it unless it did. */
  async function whileLocked(act: (release: () => Promise<void>) => Promise<void>): Promise<void> {
    let held = true;
    const release = async () => {
      held = false;
      await locker.query('rollback');
    };
    await locker.query('begin');
    try {
      await locker.query('lock table sighting in access exclusive mode');
      await act(release);
    } finally {
      if (held) await release();
    }
  }

  const exportOf = async (encoding: string) => fetch(`${service.api}/sighting?sort=sightingDate`,
    { headers: { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`, Accept: 'text/csv',
      'Accept-Encoding': encoding } });

  /** Reads `reader` until its text holds a line end (the header row's). */
  async function headerRow(reader: ReadableStreamDefaultReader<Uint8Array>, decoder: TextDecoder): Promise<string> {
    let text = '';
    while (!text.includes('\r\n')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  }

  for (const encoding of ['identity', 'gzip', 'br']) {
    it(`when a CSV export (${encoding}) is asked while its rows are held back, then its status and header row ` +
      'arrive, and its rows once they are let go', async () => {
      await whileLocked(async (release) => {
        const response = await exportOf(encoding);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-encoding') ?? 'identity').to.equal(encoding);
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let text = await headerRow(reader, decoder);
        expect(text).to.match(/^sightingId,[^\r\n]*\r\n$/);
        // Still waiting for the lock: no row could have been written before the header row left.
        expect(await waitingCopies()).to.equal(1);

        await release();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          text += decoder.decode(chunk.value, { stream: true });
        }
        // The embedded data's sighting -1 at least, after the header row.
        expect(text.split('\r\n').filter(Boolean).length).to.be.greaterThan(1);
        expect(text).to.match(/\r\n-1,/);
      });
    });
  }

  it('when the client leaves after the header row while the rows are held back, then the export\'s statement is ' +
    'cancelled at once and the service answers on', async () => {
    const headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`, Accept: 'text/csv' };
    await whileLocked(async () => {
      const request = get(`${service.api}/sighting?sort=sightingDate`, { headers });
      try {
        const [response] = await once(request, 'response') as [IncomingMessage];
        expect(response.statusCode).to.equal(200);
        const [header] = await once(response, 'data') as [Buffer];
        expect(header.toString()).to.match(/^sightingId,[^\r\n]*\r\n$/);
        expect(await waitingCopies()).to.equal(1);
      } finally {
        // Gone at once (a reset), as a client whose process ends: one that only half-closes its side is still answered
        // (src/lifecycle/service-ports.ts) and is found gone at the first write after its rows come.
        request.socket?.resetAndDestroy();
        request.destroy();
      }
      // The lock is still held: only the service's cancel ends the wait, long before the statement bound would.
      await eventually(async () => await waitingCopies() === 0, { what: 'the left export\'s COPY cancelled' });
    });
    const read = await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: headers.Authorization } });
    expect(read.status).to.equal(200);
  });
});
