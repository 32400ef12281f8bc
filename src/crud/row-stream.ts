// Reads a query's view rows in order, in batches and bounded memory: a cursor on PostgreSQL, keyset batches on PGlite.
// Batches, not rows, travel on to the views and the writer: a row costs no promise of its own past the driver.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, ViewRow } from './resource-descriptor.ts';
import { viewQuery } from './view-rows.ts';
import { routedRead, type ReadKind } from '../db/read-routing.ts';
import { readsByCursor } from '../db/orm.ts';
import { keysetAfter, keyValues, listOrder, orderBy, type SortKey } from './list-order.ts';

/**
 * Rows per cursor fetch on PostgreSQL, and per keyset batch on PGlite. PGlite runs in this process and cannot
 * stream: each batch blocks the event loop while it runs, so its batches are small and other requests get their
 * turn in between (see `nextTurn` below).
 */
export const batchSize = { pglite: 200, postgresql: 1000 };

/**
 * `kind` says whether a read replica may answer (src/db/read-routing.ts decides); `keys` is the order, by default
 * the id's (src/crud/list-order.ts).
 */
export function viewRowBatches<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>, kind: ReadKind, limit = Infinity, keys: readonly SortKey[] = listOrder(em, resource)): AsyncGenerator<ViewRow[]> {
  // PGlite's driver has no cursors ("Streaming is not supported by PGlite").
  return readsByCursor(em)
    ? cursor(em, resource, where, kind, limit, keys)
    : keysetBatches(em, resource, where, kind, batchSize.pglite, limit, keys);
}

/**
 * One statement read through a `pg` cursor: the planner sees the whole query (and takes the trigram index for a
 * substring) instead of one `order by id limit n` per batch, which it answers by walking the primary key. Each
 * fetch is bounded in time (src/db/bounded-cursor.ts).
 */
async function* cursor<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>, kind: ReadKind, limit: number, keys: readonly SortKey[]): AsyncGenerator<ViewRow[]> {
  // Opened (first fetch read) inside routedRead, so a replica that fails to answer hands the read to the primary.
  const { rows, first } = await routedRead(kind, async (connectionType) => {
    const qb = viewQuery(em, resource, where, connectionType).orderBy(orderBy(keys));
    if (Number.isFinite(limit)) qb.limit(limit);
    const rows = qb.stream({ rawResults: true, chunkSize: batchSize.postgresql })[Symbol.asyncIterator]();
    return { rows, first: await rows.next() };
  });
  if (first.done) return;
  // The driver hands over rows one at a time; they travel on as the batches it fetched them in.
  let batch = [first.value];
  for (let next = await rows.next(); !next.done; next = await rows.next()) {
    batch.push(next.value);
    if (batch.length === batchSize.postgresql) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function* keysetBatches<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>, kind: ReadKind, batch: number, limit: number, keys: readonly SortKey[]): AsyncGenerator<ViewRow[]> {
  let after: ViewRow | undefined;
  for (let remaining = limit; remaining > 0;) {
    const page = Math.min(batch, remaining);
    const keyset = after === undefined ? where : { $and: [where, keysetAfter(keys, keyValues(keys, after))] };
    const rows = await routedRead(kind, (connectionType) => viewQuery(em, resource, keyset as FilterQuery<E>, connectionType)
      .orderBy(orderBy(keys)).limit(page).execute('all', false)) as ViewRow[];
    if (rows.length > 0) yield rows;
    if (rows.length < page) return;
    remaining -= rows.length;
    after = rows.at(-1)!;
    // Let requests that arrived meanwhile run before the next batch blocks the loop again.
    await nextTurn();
  }
}

export async function* mapBatches<T, U>(batches: AsyncIterable<readonly T[]>, map: (item: T) => U): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(map);
}
