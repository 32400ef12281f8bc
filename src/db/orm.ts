// Opens the database: PostgreSQL when DATABASE_URL is set, else embedded PGlite; migrates it at start (or checks),
// through DATABASE_DIRECT_URL when set.
import { FlushMode, type EntityManager, type MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import type { Pool } from 'pg';
import type { PgliteConnection } from '@mikro-orm/pglite';
import { migrationUrl, type Config } from '../config/config.ts';
import type { Logger } from '../observability/logger.ts';
import type { ReadRouting } from './read-routing.ts';
import { locks, migrate, type MigrationPlan } from './migrate.ts';
import { checkPooling } from './pooling-rules.ts';
import { boundedWaits } from './bounded-waits.ts';
import { reportServerStatementBound } from './server-statement-bound.ts';
import { pgliteSnapshot } from './pglite-snapshot.ts';
import { timedQueries, type StatementTimer } from './timed-queries.ts';
import { acquireWaitHooks } from './acquire-wait.ts';

const common = {
  // Found, not listed: a new table is an entity file and its migration, generated (npm run migration:create).
  entities: [`${import.meta.dirname}/entities/*.entity.ts`],
  extensions: [Migrator],
  // Run and recorded by file name, in order: `0001-initial-schema`, …, then `<timestamp>-<name>` as generated.
  migrations: { path: `${import.meta.dirname}/migrations`,
    fileName: (timestamp: string, name?: string) => `${timestamp}-${name}`, transactional: true, allOrNothing: true,
    snapshot: false },
  // Request code must never fall back to the global context: one fork per request.
  allowGlobalContext: false,
  // Writes happen at the handler's explicit flush only, never as a side effect of a query in between.
  flushMode: FlushMode.COMMIT,
  // A write is one transaction with its history entry (src/crud/write/record-history.ts), asked for explicitly.
  implicitTransactions: false,
} satisfies Partial<Options>;

// The ORMs opened on PostgreSQL, which streams rows through a cursor; PGlite's driver has none.
const withCursors = new WeakSet<object>();

/** Whether this EntityManager's database reads a long result through a cursor (src/crud/read/row-stream.ts). */
export function readsByCursor(em: EntityManager): boolean {
  return withCursors.has(em.config);
}

export interface DatabaseHooks {
  logger: Logger;
  readRouting: ReadRouting;
  /** Each PostgreSQL connection pool as it is made: `primary`, `replica-1`, … (metrics read their counts). */
  onPool?(name: string, pool: Pool): void;
  /** A new connection of pool `name` could not be opened (metrics). */
  onConnectFailed?(name: string): void;
  /** Each statement's duration (metrics). */
  onStatement?: StatementTimer;
  /** How long each statement waited for a pooled PostgreSQL connection, in seconds (metrics). */
  onAcquireWait?(seconds: number): void;
  /** Run where the schema or its data changed, under the migration lock (src/db/migrate.ts). */
  afterSchemaChange(em: EntityManager): Promise<void>;
}

export async function openDatabase(config: Config, hooks: DatabaseHooks): Promise<MikroORM> {
  const options = {
    ...common,
    debug: config.DB_DEBUG,
    // The ORM's messages (SQL with DB_DEBUG, pool warnings) go to the service's log.
    logger: (message: string) => hooks.logger.info({ component: 'orm' }, message),
    ...(hooks.onStatement && { loggerFactory: timedQueries(hooks.onStatement) }),
    colors: false,
    subscribers: [hooks.readRouting.subscriber],
  } satisfies Partial<Options>;
  // A new in-memory database has nothing to check: it is always migrated.
  const apply = config.MIGRATE_AT_START || (!config.DATABASE_URL && !config.DATA_DIR);
  const plan = { apply, seed: config.DEMO_DATA ?? !config.DATABASE_URL, afterChange: hooks.afterSchemaChange };
  // Before the pool opens: a pooler where none may be is refused with its remedy, before any lock is taken.
  if (config.DATABASE_URL) await checkPooling(config, locks(plan), hooks.logger);
  const orm = config.DATABASE_URL ? await openPostgres(config, options, hooks)
    : await openPglite(config, options, hooks);
  try {
    if (config.DATABASE_URL && locks(plan)) await migrateOnOwnSessions(config, options, hooks, plan);
    else await migrate(orm, config, hooks.logger, plan);
    if (config.DATABASE_URL) await reportServerStatementBound(orm, config.DB_STATEMENT_TIMEOUT_MS, hooks.logger);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}

/** `migrating`: the sessions a migration runs on (src/db/bounded-waits.ts). */
async function openPostgres(config: Config & { migrating?: boolean }, options: Partial<Options>,
  hooks: DatabaseHooks): Promise<MikroORM> {
  const { MikroORM } = await import('@mikro-orm/postgresql');
  // The whole URL goes to pg as well: MikroORM reads only its user, password, host, port and database from it, and
  // pg's own parsing keeps the rest (`sslmode`, `sslrootcert`, …), so TLS settings in the URL reach every connection.
  const driverOptions = (name: string, url: string) => ({
    ...boundedWaits(config, (pool) => hooks.onPool?.(name, pool as Pool), () => hooks.onConnectFailed?.(name)),
    connectionString: url,
  });
  const orm = await MikroORM.init({
    ...options,
    clientUrl: config.DATABASE_URL,
    pool: { min: 0, max: config.DB_POOL_MAX },
    ...(hooks.onAcquireWait && acquireWaitHooks(hooks.onAcquireWait)),
    driverOptions: driverOptions('primary', config.DATABASE_URL!),
    // MikroORM's own replica support. Reads use a replica only when read-routing.ts asks for one
    // (connectionType 'read'); everything else, migrations included, stays on the primary.
    replicas: config.DATABASE_REPLICA_URLS.map((clientUrl, index) => ({
      name: `replica-${index + 1}`, clientUrl, driverOptions: driverOptions(`replica-${index + 1}`, clientUrl),
    })),
    preferReadReplicas: false,
  });
  withCursors.add(orm.config);
  return orm;
}

/**
 * Migrations (DDL, long transactions, the lock's session) run straight on the server, on a small ORM of their own
 * closed afterwards, as the migration URL's role (the schema's owner): DATABASE_URL may be a transaction-mode pooler
 * or a role that may only read and write rows, and the service's sessions keep their statement bound, which a
 * migration's statement (an index built over a large table) may outlast.
 */
async function migrateOnOwnSessions(config: Config, options: Partial<Options>,
  { logger, readRouting, afterSchemaChange }: DatabaseHooks, plan: MigrationPlan): Promise<void> {
  const url = migrationUrl(config)!;
  const own = { ...config, DATABASE_URL: url, DATABASE_DIRECT_URL: url, DATABASE_REPLICA_URLS: [], DB_POOL_MAX: 2,
    migrating: true };
  const direct = await openPostgres(own, options, { logger, readRouting, afterSchemaChange });
  try {
    await migrate(direct, config, logger, plan);
  } finally {
    await direct.close(true);
  }
}

async function openPglite(config: Config, options: Partial<Options>,
  { logger, afterSchemaChange }: DatabaseHooks): Promise<MikroORM> {
  const { MikroORM } = await import('@mikro-orm/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  // A new in-memory database starts from the snapshot of a freshly migrated one: initdb and the migrations take
  // seconds.
  const snapshot = config.DATA_DIR ? undefined : await pgliteSnapshot();
  const orm = await MikroORM.init({
    ...options,
    dbName: 'sighting',
    driverOptions: { dataDir: config.DATA_DIR ?? 'memory://', extensions: { pg_trgm },
      loadDataDir: snapshot?.data as Blob | undefined },
  });
  if (snapshot && !snapshot.data) {
    await migrate(orm, config, logger, { apply: true, seed: false, afterChange: afterSchemaChange });
    await snapshot.save(await (orm.em.getConnection() as PgliteConnection).getNativeClient());
  }
  return orm;
}
