// Streams one statement's rows through a cursor that may stay open for longer than DB_STATEMENT_TIMEOUT_MS.
import type { ConnectionType } from './read-routing.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';

/**
 * The server's `statement_timeout` runs from a cursor's first fetch to its close, so it would cut every list that
 * streams for longer than the bound. The cursor runs in a read-only transaction of its own, with the bound lifted for
 * that transaction only (`set local`): the connection goes back to the pool with its bound as it was, whatever
 * happened. Each fetch stays bounded by the client (src/db/bounded-cursor.ts).
 */
export async function* longRead(em: EntityManager, connectionType: ConnectionType, sql: string, params: readonly unknown[], chunkSize: number): AsyncGenerator<Record<string, unknown>> {
  const connection = (em as SqlEntityManager).getConnection(connectionType);
  const trx = await connection.begin({ readOnly: true });
  try {
    await connection.execute('set local statement_timeout = 0', [], 'run', trx);
    yield* connection.stream<Record<string, unknown>>(sql, params, trx, undefined, chunkSize);
  } finally {
    // Read only: nothing to commit. A connection torn down (a fetch unanswered) refuses at once; that is no news.
    await connection.rollback(trx).catch(() => {});
  }
}
