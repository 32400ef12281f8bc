// Brings the schema up to date under one lock per database, so instances that start together migrate it once.
import type { MikroORM } from '@mikro-orm/core';
import pg from 'pg';
import type { Config } from '../config.ts';
import { seedDemoData } from './demo-data.ts';
import { backfillHistory } from '../history/backfill.ts';

/** The key of the advisory lock every migration run takes (any fixed bigint; advisory locks are per database). */
const migrationLock = '89500628037735';

export interface MigrationPlan {
  /** Apply pending migrations (the default at start), or only check that none is pending (`MIGRATE_AT_START=false`). */
  apply: boolean;
  /** Seed the demo records into an empty database (`DEMO_DATA`). */
  seed: boolean;
}

/** Thrown when migrations are pending and this process may not apply them; the start-up failure names them. */
export class MigrationsPending extends Error {
  readonly pending: string[];
  constructor(pending: string[]) {
    super(`migrations are pending (${pending.join(', ')}): run \`npm run migrate\` first`);
    this.pending = pending;
  }
}

/**
 * Everything a schema change does happens while the lock is held: the migrations table made, the pending list read,
 * each migration run and recorded, the demo data seeded. A second instance waits for the first, then finds nothing
 * to do (PostgreSQL's `create extension if not exists` and `create table if not exists` race otherwise).
 */
export async function migrate(orm: MikroORM, config: Pick<Config, 'DATABASE_URL' | 'DB_CONNECT_TIMEOUT_MS'>, { apply, seed }: MigrationPlan): Promise<void> {
  await withMigrationLock(config, async () => {
    const pending = (await orm.migrator.getPending()).map((migration) => migration.name);
    if (pending.length && !apply) throw new MigrationsPending(pending);
    if (pending.length) await orm.migrator.up();
    const seeded = seed && await seedDemoData(orm.em.fork());
    if (pending.length || seeded) await backfillHistory(orm.em.fork());
  });
}

/**
 * A session lock on a connection of its own, outside the ORM's pool: the migrator needs the pool's connections (a
 * pool of one included), and the lock ends with that connection, also when the process holding it dies. Embedded
 * PGlite belongs to this one process: nothing else can migrate it meanwhile.
 */
async function withMigrationLock<T>({ DATABASE_URL, DB_CONNECT_TIMEOUT_MS }: Pick<Config, 'DATABASE_URL' | 'DB_CONNECT_TIMEOUT_MS'>, run: () => Promise<T>): Promise<T> {
  if (!DATABASE_URL) return run();
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS, application_name: 'sighting-registry migrate' });
  await client.connect();
  try {
    // Waits as long as another instance's migrations take: they may be long, and a waiting instance is not ready.
    await client.query('select pg_advisory_lock($1)', [migrationLock]);
    return await run();
  } finally {
    await client.end();
  }
}
