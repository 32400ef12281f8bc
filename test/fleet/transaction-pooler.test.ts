// Through a transaction-mode pooler (PgBouncer, scripts/with-pgbouncer.sh) as on PostgreSQL itself: migrate, the
// server's statement bound, cursors that leave no session changed, LISTEN straight on the server.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { backend, startService, type TestService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { rawRequest } from '../support/api-client.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';

const unavailable = { general: 'The database is not available; please try again later.' };

describe('PostgreSQL through a transaction pooler (PgBouncer when DATABASE_DIRECT_URL is set) @pgbouncer', function () {
  let scratch: ScratchDatabase;
  let direct: string;
  let name: string;
  let service: TestService;

  before(async function () {
    if (backend !== 'postgresql') return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    direct = scratch.env.DATABASE_DIRECT_URL ?? scratch.url;
    name = new URL(direct).pathname.slice(1);
    // The operator's part (README): the server's statement bound as the database's default, for every session.
    await query(scratch.env.DATABASE_MIGRATION_URL ?? direct, `alter database "${name}" set statement_timeout = '1s'`);
  });

  after(async () => {
    await service?.stop();
    await scratch?.drop();
  });

  it('when `npm run migrate` runs with both URLs, then it migrates the database and exits 0', async () => {
    // The service role's password, where the run's server checks passwords (scripts/postgres-production.sh).
    const password = process.env.PGPASSWORD === undefined ? {} : { PGPASSWORD: process.env.PGPASSWORD };
    const child =
      spawn(process.execPath, ['src/lifecycle/migrate-command.ts'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...password, ...scratch.env, DEMO_DATA: 'true',
          LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => { output += text; });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { output += text; });
    const [code] = await once(child, 'close') as [number];
    expect({ code, migrated: /the database is migrated: \d+ migrations applied in all/.test(output) }, output)
      .to.deep.equal({ code: 0, migrated: true });
    const [row] = await query<{ sightings: number }>(direct,
      'select count(*)::int as sightings from sighting where sighting_id = -1');
    expect(row).to.deep.equal({ sightings: 1 });
    service = await startService({ ...scratch.env, MIGRATE_AT_START: 'false', DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_POOL_MAX: '6' });
  });

  it('when the change feed listens, then its LISTEN session is straight on the server', async () => {
    const [listening] = await eventually(async () => {
      const rows = await query<{ query: string }>(direct, `select query from pg_stat_activity where datname = $1 ` +
        `and application_name = 'sighting-registry listen'`, [name]);
      // The session is there from its connect on; its first statement may still be on its way.
      return rows.some((row) => row.query !== '') ? rows : undefined;
    });
    expect(listening).to.deep.equal({ query: 'listen record_change' });
  });

  it('when 8 long lists stream through cursors at once, ' +
    'then each has every row and no server session is left with a changed statement_timeout', async () => {
    await query(direct, 'insert into sighting (sighting_memo, vessel_id) ' +
      `select 'through the pooler ' || g, -1 from generate_series(1, 3000) g`);
    const lists = await Promise.all(Array.from({ length: 8 }, async () => {
      const response = await rawRequest(service, 'GET', '/sighting');
      return { status: response.status, records: (await response.json() as unknown[]).length };
    }));
    expect(lists).to.deep.equal(Array(8).fill({ status: 200, records: 3001 }));

    // As many sessions at once as the pooler keeps per database (20), each in a transaction so each holds a server
    // connection of its own: every session the lists ran on is among them.
    const clients = await Promise.all(Array.from({ length: 20 }, async () => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      return client;
    }));
    try {
      await Promise.all(clients.map((client) => client.query('begin')));
      const sessions = await Promise.all(clients.map(async (client) =>
        (await client.query<{ statement_timeout: string }>('show statement_timeout')).rows[0]!.statement_timeout));
      expect(sessions).to.deep.equal(Array(20).fill('1s'));
    } finally {
      await Promise.all(clients.map(async (client) => { await client.query('commit').catch(() => {});
        await client.end(); }));
    }
  });

  it('when a table is locked, then a read is 503 and its statement is cancelled on the server, ' +
    'and the service serves again once the lock is gone', async () => {
    const locker = new pg.Client({ connectionString: direct });
    await locker.connect();
    const lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    try {
      await locker.query('begin');
      await locker.query('lock table sighting in access exclusive mode');
      const response = await rawRequest(service, 'GET', '/sighting/-1');
      expect({ status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() })
        .to.deep.equal({ status: 503, retryAfter: '5', body: unavailable });
      // Nothing of the service's still waits for the lock on the server (without the cancel this waits until mocha's
      // timeout).
      const waiting = async () => (await query<{ count: number }>(direct, 'select count(*)::int as count from ' +
        `pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and pid <> $2`, [name, lockerPid]))[0]!.count;
      expect(await eventually(async () => (await waiting()) === 0)).to.equal(true);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    expect((await rawRequest(service, 'GET', '/sighting/-1')).status).to.equal(200);
  });
});
