// Opens the database: PostgreSQL when DATABASE_URL is set, else embedded PGlite; migrates it at start.
import { FlushMode, type MikroORM, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import type { Config } from '../config.ts';
import { Timezone, Vessel, Translation, Sighting, IdempotencyRecord } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';
import { seedDemoData } from './demo-data.ts';
import { boundedWaits } from './bounded-waits.ts';

const common = {
  entities: [Timezone, Vessel, Translation, Sighting, IdempotencyRecord],
  extensions: [Migrator],
  migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
  // Request code must never fall back to the global context: one fork per request (STYLE 3).
  allowGlobalContext: false,
  // Writes happen at the handler's explicit flush only, never as a side effect of a query in between.
  flushMode: FlushMode.COMMIT,
} satisfies Partial<Options>;

export async function openDatabase(config: Config): Promise<MikroORM> {
  const orm = config.DATABASE_URL ? await openPostgres(config) : await openPglite(config);
  await orm.migrator.up();
  if (config.DEMO_DATA ?? !config.DATABASE_URL) {
    await seedDemoData(orm.em.fork());
  }
  return orm;
}

async function openPostgres(config: Config): Promise<MikroORM> {
  const { MikroORM } = await import('@mikro-orm/postgresql');
  return MikroORM.init({
    ...common,
    debug: config.DB_DEBUG,
    clientUrl: config.DATABASE_URL,
    pool: { min: 0, max: config.DB_POOL_MAX },
    driverOptions: boundedWaits(config),
  });
}

async function openPglite(config: Config): Promise<MikroORM> {
  const { MikroORM } = await import('@mikro-orm/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return MikroORM.init({
    ...common,
    debug: config.DB_DEBUG,
    dbName: 'sighting',
    driverOptions: { dataDir: config.DATA_DIR ?? 'memory://', extensions: { pg_trgm } },
  });
}
