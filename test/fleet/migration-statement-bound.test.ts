// A migration's statements run on sessions of their own, without the requests' statement bound (an index built over a
// large table takes as long as it takes) but with the bound on waiting for a lock (a schema change queued for its lock
// holds every request behind it); the service's own sessions keep their bound.
import { expect } from 'chai';
import type { EntityManager } from '@mikro-orm/core';
import { backend } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { loadConfig } from '../../src/config/config.ts';
import { openDatabase } from '../../src/db/orm.ts';
import { ReadRouting } from '../../src/db/read-routing.ts';
import { createLogger } from '../../src/observability/logger.ts';

/** Short, so a statement of the migration's that outlasts it shows, and the server's bound and the client's with it. */
const statementBoundMs = 300;

const setting = async (em: EntityManager, name: string): Promise<string> =>
  ((await em.getConnection().execute(`show ${name}`)) as Array<Record<string, string>>)[0]![name]!;

describe('a migration\'s statements beside the requests\' statement bound @pgbouncer', function () {
  let scratch: ScratchDatabase;

  before(function () {
    // Embedded PGlite has no statement bound.
    if (backend !== 'postgresql') this.skip();
  });

  beforeEach(async () => { scratch = await createScratchDatabase(process.env.DATABASE_URL!); });
  afterEach(async () => { await scratch?.drop(); });

  it('when a new database is migrated under a bound of 300 ms, then a statement of the migration\'s may take ' +
    'longer, its lock waits keep the bound, and the service\'s sessions keep it too', async () => {
    const config = loadConfig({ ...scratch.env, DB_STATEMENT_TIMEOUT_MS: String(statementBoundMs), LOG_LEVEL: 'warn',
      MIGRATE_AT_START: 'true' });
    const migrationSession: Record<string, string> = {};
    const orm = await openDatabase(config, { logger: createLogger(config), readRouting: new ReadRouting(0, 1000),
      // Run on the migration's sessions, under its lock, as the history's backfill is.
      async afterSchemaChange(em) {
        migrationSession.statementTimeout = await setting(em, 'statement_timeout');
        migrationSession.lockTimeout = await setting(em, 'lock_timeout');
        // Past the server's bound and the client's (1 s beyond it).
        await em.getConnection().execute(`select pg_sleep(${(statementBoundMs + 1500) / 1000})`);
      } });
    try {
      expect(migrationSession).to.deep.equal({ statementTimeout: '0', lockTimeout: `${statementBoundMs}ms` });
      expect(await orm.migrator.getPending()).to.deep.equal([]);
      // Straight to the server the service's sessions start with the bound; behind the pooler they have the role's.
      if (!scratch.env.DATABASE_DIRECT_URL) {
        expect(await setting(orm.em.fork(), 'statement_timeout')).to.equal(`${statementBoundMs}ms`);
      }
    } finally {
      await orm.close(true);
    }
  });
});
