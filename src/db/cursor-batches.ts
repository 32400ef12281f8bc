// A statement's rows through a `pg` cursor, a fetch at a time: Kysely's stream under the ORM, whose own stream hands
// the rows over one by one (a promise each, three generators deep: a third of a long export's time).
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { ConnectionType } from './read-routing.ts';

/**
 * The rows of `sql` (its values inlined, as the ORM's stream sends it) `fetchSize` at a time, on a connection of
 * `connectionType`. The cursor (and its connection) is closed once the rows are read or the reader returns early.
 */
export async function* cursorBatches<Row>(em: EntityManager, connectionType: ConnectionType, sql: string,
  fetchSize: number): AsyncGenerator<Row[]> {
  const connection = (em as SqlEntityManager).getConnection(connectionType);
  await connection.ensureConnection();
  const compiled = { query: { kind: 'SelectQueryNode' }, sql, parameters: [] } as never;
  for await (const { rows } of connection.getClient().getExecutor().stream(compiled, fetchSize)) yield rows as Row[];
}
