// Applies pending migrations (and the demo data when DEMO_DATA=true) to the configured database, then exits: the
// step a fleet runs before starting instances with MIGRATE_AT_START=false. Safe to run from several places at once.
import { loadConfig } from '../config/config.ts';
import { openServiceDatabase } from './service-database.ts';
import { ReadRouting } from '../db/read-routing.ts';
import { createLogger } from '../observability/logger.ts';
import { failedStart } from './start-up-failure.ts';

try {
  const config = loadConfig({ ...process.env, MIGRATE_AT_START: 'true' });
  const logger = createLogger(config);
  const orm = await openServiceDatabase(config, { logger, readRouting: new ReadRouting(0, 0) });
  const executed = await orm.migrator.getExecuted();
  logger.info({ migrations: executed.map((migration) => migration.name) },
    `the database is migrated: ${executed.length} migrations applied in all`);
  await orm.close();
  logger.flush();
} catch (error) {
  failedStart(error);
}
