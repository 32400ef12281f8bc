// A batch's statements are bounded in proportion to its records (src/crud/write/batch-copy.ts): one statement bound
// (DB_STATEMENT_TIMEOUT_MS) and one more for each 5,000 records. A large batch outlives the single bound; a small one
// held past its own is cancelled on the server, answered 503, and stores nothing. Also behind the transaction pooler,
// where the server has no bound of its own but the batch's `SET LOCAL`.
import { expect } from 'chai';
import pg from 'pg';
import { backend, startService, type TestService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { rawRequest } from '../support/api-client.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';
import { unique } from '../support/fixtures.ts';

// Long enough that the 40,000 records' own work once the lock is let go fits in what is left of their nine bounds: with
// bounds of 1 s, CI's loaded machine once took more than the 7.5 s left.
const statementBoundMs = 3000;

describe('a batch\'s statement bound, in proportion to its records @pgbouncer', function () {
  let scratch: ScratchDatabase;
  let service: TestService;
  let locker: pg.Client;
  let direct: string;
  let lockerPid: number;

  before(async function () {
    if (backend !== 'postgresql') return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    direct = scratch.env.DATABASE_DIRECT_URL ?? scratch.url;
    service = await startService({ ...scratch.env, DB_STATEMENT_TIMEOUT_MS: String(statementBoundMs) });
    locker = new pg.Client({ connectionString: direct });
    await locker.connect();
    lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  });

  after(async () => {
    await locker?.end();
    await service?.stop();
    await scratch?.drop();
  });

  const batch = (memo: string, count: number) => rawRequest(service, 'POST', '/sighting/batch', {
    user: 'alice', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(Array.from({ length: count }, (_, index) =>
      ({ sightingMemo: `${memo} ${index}`, vessel: { vesselId: -1 } }))),
  });
  const stored = async (memo: string) => (await query<{ count: number }>(direct,
    'select count(*)::int as count from sighting where sighting_memo like $1', [`${memo} %`]))[0]!.count;
  /** The service's statements waiting for the locker's lock, with how long each has run by the server's clock. */
  const waitingInserts = async () => query<{ ms: number }>(direct,
    `select extract(epoch from clock_timestamp() - query_start) * 1000 as ms from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and pid <> $1`, [lockerPid]);

  /** Runs `act` while the sighting table takes no rows (a SHARE lock: reads go on), released after it. */
  async function whileLocked<T>(act: () => Promise<T>): Promise<T> {
    await locker.query('begin');
    try {
      await locker.query('lock table sighting in share mode');
      return await act();
    } finally {
      await locker.query('rollback');
    }
  }

  it('when 40,000 records wait for a lock longer than the statement bound, then they are stored once it is let go',
    async () => {
      const memo = unique('outlives');
      // Wrapped: an async function's answer that is a promise would be awaited before the lock is let go.
      const { sent } = await whileLocked(async () => {
        const sent = batch(memo, 40_000);
        // Nine bounds for 40,000 records: it is still waiting, unrefused, after one and a half.
        await eventually(async () => (await waitingInserts()).some(({ ms }) => ms > statementBoundMs * 1.5),
          { what: 'the batch\'s insert waiting longer than the statement bound' });
        return { sent };
      });
      const answer = await sent;
      expect(answer.status, await answer.clone().text()).to.equal(201);
      expect(await answer.json()).to.have.length(40_000);
      expect(await stored(memo)).to.equal(40_000);
    });

  it('when one record waits for a lock past its bound, then 503, its statement is cancelled and nothing is stored',
    async () => {
      const memo = unique('cancelled');
      const answer = await whileLocked(async () => {
        const refused = await batch(memo, 1);
        expect(await waitingInserts()).to.deep.equal([]);
        return refused;
      });
      expect({ status: answer.status, retryAfter: answer.headers.get('Retry-After'), body: await answer.json() })
        .to.deep.equal({ status: 503, retryAfter: '5',
          body: { general: 'The database is not available; please try again later.' } });
      expect(await stored(memo)).to.equal(0);
    });
});
