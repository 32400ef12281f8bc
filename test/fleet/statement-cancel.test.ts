// A statement the service gave up on (DB_STATEMENT_TIMEOUT_MS, then 503) is cancelled on the server, also behind a
// transaction pooler where the server has no statement bound of its own: the service sends the cancel request.
import { expect } from 'chai';
import pg from 'pg';
import { backend, startService, type TestService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { rawRequest } from '../support/api-client.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';

describe('a statement the service gave up on, with no server bound (PgBouncer when DATABASE_DIRECT_URL is set) ' +
  '@pgbouncer', function () {
  let scratch: ScratchDatabase;
  let service: TestService;
  let locker: pg.Client;

  before(async function () {
    if (backend !== 'postgresql') return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    service = await startService({ ...scratch.env, DB_STATEMENT_TIMEOUT_MS: '1000', DB_POOL_MAX: '4' });
    locker = new pg.Client({ connectionString: scratch.env.DATABASE_DIRECT_URL ?? scratch.url });
    await locker.connect();
  });

  after(async () => {
    await locker?.end();
    await service?.stop();
    await scratch?.drop();
  });

  it('when a table is locked, then a read is 503 with Retry-After, ' +
    'and its statement no longer waits on the server while the lock is still held', async () => {
    if (scratch.env.DATABASE_DIRECT_URL) {
      // Behind the pooler the service sets no bound on its sessions, and this database has no default: only the
      // service's cancel request can end the statement.
      expect(await query(scratch.url, 'show statement_timeout')).to.deep.equal([{ statement_timeout: '0' }]);
    }
    const name = new URL(scratch.url).pathname.slice(1);
    const lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    await locker.query('begin');
    try {
      await locker.query('lock table sighting in access exclusive mode');
      const response = await rawRequest(service, 'GET', '/sighting/-1');
      expect({ status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() })
        .to.deep.equal({ status: 503, retryAfter: '5',
          body: { general: 'The database is not available; please try again later.' } });
      const waiting = async () => (await query<{ count: number }>(scratch.env.DATABASE_DIRECT_URL ?? scratch.url,
        `select count(*)::int as count from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' ` +
          `and pid <> $2`, [name, lockerPid]))[0]!.count;
      expect(await eventually(async () => (await waiting()) === 0)).to.equal(true);
    } finally {
      await locker.query('rollback');
    }
    expect((await rawRequest(service, 'GET', '/sighting/-1')).status).to.equal(200);
  });
});
