// An instance that finds the migration lock held waits within MIGRATE_LOCK_TIMEOUT_MS, saying who holds it, then
// migrates or fails the start with one line.
import { expect } from 'chai';
import pg from 'pg';
import { backend } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { spawnService, listening } from '../support/service-process.ts';
import { freePort } from '../support/free-port.ts';
import { eventually } from '../support/condition.ts';
import { migrationLock } from '../../src/db/migration-lock.ts';

/** Status, Retry-After and JSON body of a GET to the waiting instance's port. */
async function answer(url: string): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() };
}

/** The URL migrations take the lock through: the schema owner's when the run has one apart from the service's role. */
const migratorUrl = (scratch: ScratchDatabase): string =>
  scratch.env.DATABASE_MIGRATION_URL ?? scratch.env.DATABASE_DIRECT_URL ?? scratch.url;

describe('the migration lock held by another process (PostgreSQL) @pgbouncer', function () {
  let scratch: ScratchDatabase;
  let holder: pg.Client;
  let holderPid: number;

  before(function () {
    // Embedded PGlite belongs to one process: nobody else can hold its lock.
    if (backend !== 'postgresql') this.skip();
  });

  beforeEach(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    // Another migrator: a session of its own holding the lock, straight on the server, as the role that migrates.
    holder = new pg.Client({ connectionString: migratorUrl(scratch), application_name: 'the other migrator' });
    await holder.connect();
    holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    await holder.query('select pg_advisory_lock($1)', [migrationLock]);
  });

  afterEach(async () => {
    await holder.end().catch(() => {});
    await scratch.drop();
  });

  /**
   * The service's settings: through the pooler when the run has one, the lock and migrations straight on the server.
   */
  const settings = (extra: Record<string, string>): Record<string, string> =>
    ({ ...scratch.env, DEMO_DATA: 'true', LOG_LEVEL: 'info', ...extra });

  it('when another process holds the lock, then the instance logs that it waits and who holds it, ' +
    'its port says alive and starting, and it migrates and serves once the lock is free', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const service = spawnService(settings({ MIGRATE_LOCK_TIMEOUT_MS: '120000', PORT: String(port) }));
    try {
      const waiting = await service.lineWhere((line) =>
        typeof line.msg === 'string' && line.msg.startsWith('waiting for the migration lock another process holds'));
      expect(waiting).to.have.property('level', 40);
      expect(waiting.holder).to.deep.include({ pid: holderPid, applicationName: 'the other migrator', state: 'idle' });
      expect(Number.isNaN(Date.parse((waiting.holder as { connectedSince: string }).connectedSince)),
        'connectedSince is a time').to.equal(false);
      expect(service.lines.some((line) => typeof line.url === 'string'), 'not started before the lock').to.equal(false);
      // Alive (an orchestrator must not restart it), not ready, and the contract's 503 with Retry-After to the API.
      expect(await answer(`${origin}/health/live`))
        .to.deep.equal({ status: 200, retryAfter: null, body: { status: 'UP' } });
      expect(await answer(`${origin}/health/ready`))
        .to.deep.equal({ status: 503, retryAfter: '1', body: { status: 'DOWN', reason: 'starting' } });
      expect(await answer(`${origin}/api/sighting`)).to.deep.equal({ status: 503, retryAfter: '1',
        body: { general: 'The service is starting; please try again in a moment.' } });
      expect(service.lines.some((line) => typeof line.url === 'string'), 'still waiting for the lock').to.equal(false);

      await holder.query('select pg_advisory_unlock($1)', [migrationLock]);
      const { url } = await listening(service);
      expect(url).to.equal(origin);
      // Ready once its probe of the database answers: through the pooler on a loaded machine a new connection can
      // take longer than the probe's bound, so the first answer may still be 503.
      await eventually(async () => (await fetch(`${url}/health/ready`)).status === 200,
        { what: 'readiness after the migrations' });
      const migrations =
        await holder.query<{ count: number }>('select count(*)::int as count from mikro_orm_migrations');
      expect(migrations.rows[0]!.count).to.be.above(0);
    } finally {
      service.child.kill('SIGINT');
      await service.exited;
    }
  });

  it('when a session of another role holds the lock, ' +
    'then the instance waits, logging it as not visible to this role, and migrates once it is free', async function () {
    // Two roles only where the run has them (scripts/postgres-production.sh): the service's, and the schema owner's.
    const owner = scratch.env.DATABASE_MIGRATION_URL;
    const appUrl = scratch.env.DATABASE_DIRECT_URL ?? scratch.url;
    if (!owner || new URL(owner).username === new URL(appUrl).username) return this.skip();
    await holder.query('select pg_advisory_unlock($1)', [migrationLock]);
    const other = new pg.Client({ connectionString: appUrl, application_name: 'another role' });
    await other.connect();
    try {
      const otherPid = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await other.query('select pg_advisory_lock($1)', [migrationLock]);
      const service = spawnService(settings({ MIGRATE_LOCK_TIMEOUT_MS: '120000' }));
      try {
        const waiting = await service.lineWhere((line) =>
          typeof line.msg === 'string' && line.msg.startsWith('waiting for the migration lock'));
        expect(waiting.holder).to.deep.equal({ pid: otherPid, visible: false, applicationName: 'another role',
          clientAddress: null, connectedSince: null, state: null });
        expect(waiting.msg).to.equal(`waiting for the migration lock another process holds (pid ${otherPid} ` +
          `(another role: another role's session, not visible to this role))`);
        await other.query('select pg_advisory_unlock($1)', [migrationLock]);
        await listening(service);
      } finally {
        service.child.kill('SIGINT');
        await service.exited;
      }
      expect(service.lines.filter((line) => line.level === 60), 'no crash').to.deep.equal([]);
    } finally {
      await other.end();
    }
  });

  it('when SIGTERM arrives while the instance waits for the lock, ' +
    'then it exits 0 with one line saying it stopped during start', async () => {
    const service = spawnService(settings({ MIGRATE_LOCK_TIMEOUT_MS: '120000' }));
    await service.lineWhere((line) =>
      typeof line.msg === 'string' && line.msg.startsWith('waiting for the migration lock'));
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
    expect(service.lines.at(-1)).to.deep.include({ level: 30, signal: 'SIGTERM',
      msg: 'SIGTERM during start: stopped before the service was ready' });
  });

  it('when the lock stays held past MIGRATE_LOCK_TIMEOUT_MS, ' +
    'then the start fails with one line naming the setting and the holder', async () => {
    const service = spawnService(settings({ MIGRATE_LOCK_TIMEOUT_MS: '1500' }));
    expect(await service.exited).to.equal(1);
    const fatal = service.lines.filter((line) => line.level === 60);
    expect(fatal).to.have.length(1);
    expect(fatal[0]).to.deep.include({ cause: 'migration lock' });
    expect(fatal[0]!.holder).to.deep.include({ pid: holderPid, applicationName: 'the other migrator' });
    expect(fatal[0]!.msg).to.match(/^the service could not start: the migration lock was not free within MIGRATE_LOCK_TIMEOUT_MS \(1500 ms\): held by pid \d+ \(the other migrator\)/);
    expect(service.other.join(''), 'nothing but JSON lines').to.equal('');
  });
});
