// A statement's rows through a `pg` cursor, in batches: MikroORM's connection stream (one generator, rows as the driver
// gives them), gathered again into the fetches they came in. The QueryBuilder's own stream adds two generators and an
// entity mapping per row: a third of a long export's time.
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { ConnectionType } from './read-routing.ts';

/**
 * The rows of `sql` (its values inlined, as `getFormattedQuery` writes it) `fetchSize` at a time, on a connection of
 * `connectionType`. The cursor (and its connection) is closed once the rows are read or the reader returns early.
 */
export async function* cursorBatches<Row>(em: EntityManager, connectionType: ConnectionType, sql: string,
  fetchSize: number): AsyncGenerator<Row[]> {
  const rows = (em as SqlEntityManager).getConnection(connectionType)
    .stream<Row & object>(sql, [], undefined, undefined, fetchSize);
  let batch: Row[] = [];
  try {
    for await (const row of rows) {
      batch.push(row);
      if (batch.length < fetchSize) continue;
      yield batch;
      batch = [];
    }
    if (batch.length > 0) yield batch;
  } finally {
    await rows.return?.(undefined);
  }
}
