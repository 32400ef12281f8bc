// Many rows for a test, written beside the service rather than through it.
import { setTimeout as nextTimerPhase } from 'node:timers/promises';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { backend, type TestService } from './service.ts';
import { query } from './sql.ts';
import { directUrl } from '../../src/config.ts';

/**
 * Runs `sql` (an insert of tens of thousands of rows) on PostgreSQL on a connection of its own, straight to the server:
 * the service's client cuts any statement a second past DB_STATEMENT_TIMEOUT_MS, and a busy machine may take longer
 * to insert and index that many rows. On PGlite through the service's ORM: the database lives in its process.
 */
export async function bulkInsert(service: TestService, sql: string): Promise<void> {
  if (backend === 'postgresql') await query(directUrl(service.web.config)!, sql);
  else {
    await (service.web.orm.em.fork() as SqlEntityManager).execute(sql);
    // The insert held this process's event loop: the server's keep-alive timers that expired meanwhile close their
    // idle sockets in the loop's next timer phase, and a request sent before it would find its socket closed under it.
    await nextTimerPhase(0);
  }
}
