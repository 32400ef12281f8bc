// Many rows for a test, written beside the service rather than through it, without stalling the test process.
import { setImmediate as turn } from 'node:timers/promises';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { backend, type TestService } from './service.ts';
import { query } from './sql.ts';
import { directUrl } from '../../src/config/config.ts';

/** Rows PGlite inserts in one statement: some 0.1 s of this process's event loop on a quiet machine. */
const pgliteSlice = 5_000;

/** An insert of the rows numbered `first` to `last` (both included), e.g. from `generate_series(first, last)`. */
export type RowsStatement = (first: number, last: number) => string;

/**
 * Inserts rows 1 to `rows` with the statements `insert` gives. On PostgreSQL in one statement, on a connection of its
 * own straight to the server: the work is the server's, and the service's client would cut a statement a second past
 * DB_STATEMENT_TIMEOUT_MS, which a busy machine may need. On PGlite through the service's ORM, `pgliteSlice` rows at a
 * time: the database runs on this process's event loop, and one statement of 60,000 rows held it for over a second
 * (seconds on a busy machine), long enough for every timer and socket of the process to fall behind at once. Between
 * slices the loop turns, so servers, clients and timers of the test keep up.
 */
export async function bulkInsert(service: TestService, rows: number, insert: RowsStatement): Promise<void> {
  if (backend === 'postgresql') {
    await query(directUrl(service.web.config)!, insert(1, rows));
    return;
  }
  const em = service.web.orm.em.fork() as SqlEntityManager;
  for (let first = 1; first <= rows; first += pgliteSlice) {
    await em.execute(insert(first, Math.min(rows, first + pgliteSlice - 1)));
    await turn();
  }
}
