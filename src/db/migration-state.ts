// The schema version this build expects: its newest migration, which must be among those the database has applied.
import { readdirSync } from 'node:fs';

const folder = `${import.meta.dirname}/migrations`;

/** Migrations are recorded by file name without extension, and their names sort in the order they run. */
export const shippedMigrations: readonly string[] = readdirSync(folder)
  .filter((file) => /^\d.*\.ts$/.test(file))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

export const expectedMigration = shippedMigrations.at(-1)!;

/**
 * One statement: whether the database answers, and whether it has applied the expected migration (a newer build's
 * later migrations may be there too during a rolling update, which this build tolerates).
 */
export const migrationStateSql = 'select exists(select 1 from mikro_orm_migrations where name = ?) as migrated, '
  + '(select count(*)::int from mikro_orm_migrations) as applied';
