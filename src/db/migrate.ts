// Brings the schema up to date under one lock per database, so instances that start together migrate it once.
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { migrationUrl, type Config } from '../config/config.ts';
import type { Logger } from '../observability/logger.ts';
import { withMigrationLock } from './migration-lock.ts';
import { seedDemoData } from './demo-data.ts';
import { shippedMigrations } from './migration-state.ts';

export interface MigrationPlan {
  /** Apply pending migrations (the default at start), or only check that none is pending (`MIGRATE_AT_START=false`). */
  apply: boolean;
  /** Seed the demo records into an empty database (`DEMO_DATA`). */
  seed: boolean;
  /**
   * Run, under the lock, after migrations were applied or demo data seeded: the history's backfill
   * (src/history/backfill.ts).
   */
  afterChange(em: EntityManager): Promise<void>;
}

/** Thrown when migrations are pending and this process may not apply them; the start-up failure names them. */
export class MigrationsPending extends Error {
  readonly pending: string[];
  constructor(pending: string[]) {
    super(`migrations are pending (${pending.join(', ')}): run \`npm run migrate\` first`);
    this.pending = pending;
  }
}

/** Thrown when the role that migrates may not change the schema: names the setting whose role it is. */
export class MigrationNotPermitted extends Error {
  readonly variable: string;
  constructor(variable: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message.split(' - ').at(-1)!.trim() : String(cause);
    super(`${variable}'s role may not change the schema (${reason}): set DATABASE_MIGRATION_URL to a URL of the ` +
      "schema's owner (docs/postgresql-operations.md)");
    this.variable = variable;
  }
}

/** The setting whose URL migrations use (the order of `migrationUrl`). */
const migrationVariable = (config: LockConfig): string => (config.DATABASE_MIGRATION_URL ? 'DATABASE_MIGRATION_URL'
  : config.DATABASE_DIRECT_URL ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL');

const isPermissionDenied = (error: unknown): boolean => {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    // SQLSTATE 42501 insufficient_privilege.
    if ((cause as { code?: unknown }).code === '42501') return true;
  }
  return false;
};

/**
 * The shipped migrations the database has not recorded, read without changing anything: MikroORM's own `getPending`
 * first creates its table, which a role with rows only may not (a start that only checks must say "pending", not
 * "permission denied").
 */
async function pendingWithoutChange(orm: MikroORM): Promise<string[]> {
  const connection = orm.em.getConnection();
  const [table] = await connection.execute<Array<{ present: boolean }>>(
    "select to_regclass('mikro_orm_migrations') is not null as present");
  if (!table?.present) return [...shippedMigrations];
  const rows: Array<{ name: string }> = await connection.execute('select name from mikro_orm_migrations');
  const applied = new Set(rows.map((row) => row.name));
  return shippedMigrations.filter((name) => !applied.has(name));
}

type LockConfig = Pick<Config, 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DATABASE_MIGRATION_URL'
  | 'DB_CONNECT_TIMEOUT_MS' | 'MIGRATE_LOCK_TIMEOUT_MS'>;

/** Whether a start changes the schema or its data, and so takes the lock: checking for pending migrations does not. */
export const locks = ({ apply, seed }: Pick<MigrationPlan, 'apply' | 'seed'>): boolean => apply || seed;

/**
 * Everything a schema change does happens while the lock is held: the migrations table made, the pending list read,
 * each migration run and recorded, the demo data seeded. A second instance waits for the first, then finds nothing
 * to do (PostgreSQL's `create extension if not exists` and `create table if not exists` race otherwise).
 */
export async function migrate(orm: MikroORM, config: LockConfig, logger: Logger,
  { apply, seed, afterChange }: MigrationPlan): Promise<void> {
  const url = migrationUrl(config);
  const steps = async () => {
    const pending = apply ? (await orm.migrator.getPending()).map((migration) => migration.name)
      : await pendingWithoutChange(orm);
    if (pending.length && !apply) throw new MigrationsPending(pending);
    if (pending.length) await orm.migrator.up();
    const seeded = seed && await seedDemoData(orm.em.fork());
    if (pending.length || seeded) await afterChange(orm.em.fork());
  };
  const permitted = async () => {
    try {
      await steps();
    } catch (error) {
      throw isPermissionDenied(error) ? new MigrationNotPermitted(migrationVariable(config), error) : error;
    }
  };
  // Embedded PGlite belongs to this one process: nothing else can migrate it meanwhile. A start that only checks
  // (MIGRATE_AT_START=false, no demo data) changes nothing, so it takes no lock.
  if (!url || !locks({ apply, seed })) return permitted();
  await withMigrationLock({ url, connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS, waitMs: config.MIGRATE_LOCK_TIMEOUT_MS,
    logger }, permitted);
}
