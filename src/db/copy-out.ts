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
 * statement, so every row comes from one snapshot. Its transaction has begun before this resolves (a replica that does
 * not answer fails here, where the read can still go to the primary), and no row need be written yet: a sorted export
 * of a million rows writes its first after the sort. Reading stops when the reader does.
 */
export interface CopiedBytes {
  /** The next bytes; undefined after the last. */
  next(): Promise<Buffer | undefined>;
  /**
   * Gives the connection back, once however often called: its transaction ended after the last bytes, torn down
   * before them (the reader stopped: the server may still be sending rows on it).
   */
  close(): Promise<void>;
}

export async function copyOut(em: EntityManager, connectionType: ConnectionType, select: string,
  options: string): Promise<CopiedBytes> {
  const pool = await (em as SqlEntityManager).getConnection(connectionType).getNativeClient() as unknown as pg.Pool;
  const client = await pool.connect();
  // The service's clients answer a COPY out with its bounded reads (src/db/bounded-waits.ts).
  const copy = client.query(copyStreams.to(`copy (${select}) to stdout (${options})`)) as unknown as BoundedCopy;
  let closed: Promise<void> | undefined;
  const close = () => closed ??= copy.close().finally(() => client.release());
  try {
    await copy.begun();
  } catch (error) {
    await close();
    throw error;
  }
  return { next: () => copy.next(), close };
}
