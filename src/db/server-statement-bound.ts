// Says at start whether the server bounds statements itself: its role's or database's default, which the operator sets.
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../observability/logger.ts';

/**
 * Behind a pooler the service sets nothing on its sessions (a transaction pooler hands them to others), so a statement
 * is cancelled on the server only by the `statement_timeout` its sessions start with (straight to the server they
 * start with DB_STATEMENT_TIMEOUT_MS). Without one, a statement the service gave up on (503 after
 * DB_STATEMENT_TIMEOUT_MS) may go on waiting on the server, holding its locks.
 */
export async function reportServerStatementBound(orm: MikroORM, boundMs: number, logger: Logger): Promise<void> {
  const [row] =
    await orm.em.getConnection().execute<{ ms: number }[]>(
    `select setting::int as ms from pg_settings where name = 'statement_timeout'`);
  const ms = row?.ms ?? 0;
  if (ms === 0) {
    logger.info({ statementTimeoutMs: 0 }, `the database does not bound statements itself: statements the service ` +
      `gives up on after DB_STATEMENT_TIMEOUT_MS may go on running; set the role's default, e.g. ALTER ROLE <role> ` +
      `SET statement_timeout = '${boundMs}ms'`);
  } else {
    logger.info({ statementTimeoutMs: ms }, `the database bounds each statement at ${ms} ms`);
  }
}
