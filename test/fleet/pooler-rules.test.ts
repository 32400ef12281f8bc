// A start behind a pooler takes its session-level work (the migration lock, LISTEN) only where a session keeps it.
import { expect } from 'chai';
import { backend } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { spawnService } from '../support/service-process.ts';
import { query } from '../support/sql.ts';
import { startStatementPooler, statementPoolerAvailable, type StatementPooler } from '../support/statement-pooler.ts';

describe('pooler rules at start (PostgreSQL through PgBouncer) @pgbouncer', function () {
  let scratch: ScratchDatabase;

  before(async function () {
    // Only a run with a pooler (scripts/with-pgbouncer.sh sets DATABASE_DIRECT_URL beside it) has one to refuse.
    if (backend !== 'postgresql' || !process.env.DATABASE_DIRECT_URL) return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  });

  after(async () => { await scratch?.drop(); });

  it('when DATABASE_URL leads through a transaction pooler and DATABASE_DIRECT_URL is unset, ' +
    'then the start fails with one line naming DATABASE_DIRECT_URL and leaves no lock', async () => {
    const { DATABASE_DIRECT_URL: direct, ...pooledOnly } = scratch.env;
    const service = spawnService({ ...pooledOnly, LOG_LEVEL: 'info' });
    expect(await service.exited).to.equal(1);
    const fatal = service.lines.filter((line) => line.level === 60);
    expect(fatal).to.have.length(1);
    expect(fatal[0]).to.include({ cause: 'configuration' });
    expect(fatal[0]!.problems).to.deep.equal([{
      variable: 'DATABASE_DIRECT_URL',
      problem: 'is not set, and DATABASE_URL leads through a connection pooler: set DATABASE_DIRECT_URL to the ' +
        'server itself (migrations, their lock and the change feed need a session of their own)',
    }]);
    const locks = await query<{ count: number }>(direct!, 'select count(*)::int as count from pg_locks ' +
      `where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`);
    expect(locks).to.deep.equal([{ count: 0 }]);
  });

  it('when DATABASE_DIRECT_URL itself leads through the pooler, then the start fails naming it', async () => {
    const service = spawnService({ ...scratch.env, DATABASE_DIRECT_URL: scratch.url });
    expect(await service.exited).to.equal(1);
    const fatal = service.lines.filter((line) => line.level === 60);
    expect(fatal.map((line) => line.problems)).to.deep.equal([[{
      variable: 'DATABASE_DIRECT_URL',
      problem: 'leads through a connection pooler: it must name the PostgreSQL server itself',
    }]]);
  });
});

describe('a pooler in statement mode (PostgreSQL) @pgbouncer', function () {
  let scratch: ScratchDatabase;
  let pooler: StatementPooler;

  before(async function () {
    if (backend !== 'postgresql' || !statementPoolerAvailable) return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    pooler = await startStatementPooler(scratch.env.DATABASE_DIRECT_URL ?? scratch.url);
  });

  after(async () => {
    await pooler?.stop();
    await scratch?.drop();
  });

  it('when DATABASE_URL leads through a statement-mode pooler, ' +
    'then the start is refused naming DATABASE_URL, even with DATABASE_DIRECT_URL set', async () => {
    const direct = scratch.env.DATABASE_DIRECT_URL ?? scratch.url;
    const service = spawnService({ ...scratch.env, DATABASE_URL: pooler.through(direct), DATABASE_DIRECT_URL: direct });
    expect(await service.exited).to.equal(1);
    const fatal = service.lines.filter((line) => line.level === 60);
    expect(fatal.map((line) => line.problems)).to.deep.equal([[{
      variable: 'DATABASE_URL',
      problem: 'leads through a connection pooler in statement mode, which cannot run the service\'s transactions: ' +
        'use transaction mode (pool_mode = transaction) with DATABASE_DIRECT_URL beside it',
    }]]);
  });
});
