// A statement's result as PostgreSQL writes it itself (`COPY (…) TO STDOUT`, through pg-copy-streams): an export's
// bytes made by the database, not a row object and a line of text per row in this process.
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { ConnectionType } from './read-routing.ts';
import type { BoundedCopy } from './bounded-copy.ts';

/**
 * The bytes of `COPY (select) TO STDOUT (options)` on a connection of `connectionType`'s pool, as they arrive: one
 * statement, so every row comes from one snapshot. The first bytes are read before this resolves (a replica that
 * fails to answer fails here, where the read can still go to the primary). Reading stops when the reader does; the
 * connection goes back to the pool once the last bytes are read, or is torn down when the reader stops before.
 */
export interface CopiedBytes {
  /** Its first bytes, undefined when the result is empty. */
  first: Buffer | undefined;
  /** The bytes after the first; closing it early (`return`) tears the connection down. */
  rest: AsyncGenerator<Buffer>;
}

export async function copyOut(em: EntityManager, connectionType: ConnectionType, select: string,
  options: string): Promise<CopiedBytes> {
  const pool = await (em as SqlEntityManager).getConnection(connectionType).getNativeClient() as unknown as pg.Pool;
  const client = await pool.connect();
  // The service's clients answer a COPY out with its bounded reads (src/db/bounded-waits.ts).
  const copy = client.query(copyStreams.to(`copy (${select}) to stdout (${options})`)) as unknown as BoundedCopy;
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      for (let next = await copy.next(); next !== undefined; next = await copy.next()) yield next;
    } finally {
      await copy.close();
      client.release();
    }
  }
  const rest = bytes();
  // Started here: from now on its `finally` runs however the reader ends, and a failure to begin fails the open.
  const first = await rest.next();
  return { first: first.done ? undefined : first.value, rest };
}
