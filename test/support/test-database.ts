// A migrated database with the demo data, opened without a server: PGlite in memory, or a scratch database of its
// own on the PostgreSQL of DATABASE_URL. `statements` collects the operation of every statement run (`with`, `select`,
// …).
import type { MikroORM } from '@mikro-orm/core';
import { loadConfig } from '../../src/config/config.ts';
import { openServiceDatabase } from '../../src/lifecycle/service-database.ts';
import { ReadRouting } from '../../src/db/read-routing.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { refuseOwnDatabase } from './own-databases.ts';

export interface TestDatabase {
  orm: MikroORM;
  statements: string[];
  close(): Promise<void>;
}

/** `settings`: the service's own (src/config/config.ts) besides the database's. */
export async function openTestDatabase(settings: Record<string, string> = {}): Promise<TestDatabase> {
  refuseOwnDatabase('openTestDatabase');
  const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  const config = loadConfig({ ...scratch?.env, DEMO_DATA: 'true', LOG_LEVEL: 'warn', ...settings });
  const statements: string[] = [];
  const orm = await openServiceDatabase(config, { logger: createLogger(config), readRouting: new ReadRouting(0, 1000),
    onStatement: (operation) => statements.push(operation) })
    .catch(async (error: unknown) => {
      await scratch?.drop();
      throw error;
    });
  return {
    orm,
    statements,
    async close() {
      await orm.close(true);
      await scratch?.drop();
    },
  };
}
