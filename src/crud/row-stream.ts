// Reads a query's view rows in id order, in bounded memory: keyset batches, small ones on PGlite.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, ViewRow } from './resource-descriptor.ts';
import { viewQuery } from './view-rows.ts';
import { routedRead, type ReadKind } from '../db/read-routing.ts';

/**
 * Rows per keyset batch. PGlite runs in this process and cannot stream: each batch blocks the event loop while it
 * runs, so its batches are small and other requests get their turn in between (see `nextTurn` below).
 */
export const batchSize = { pglite: 200, postgresql: 1000 };

/**
 * `kind` says whether a read replica may answer (src/db/read-routing.ts decides). Keyset batches on both backends:
 * each batch is one bounded statement (src/db/bounded-waits.ts), which a `pg` cursor's later fetches are not, so a
 * cursor over a cut network would wait forever.
 */
export function viewRows<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>, kind: ReadKind, limit = Infinity): AsyncGenerator<ViewRow> {
  const batch = em.getPlatform().constructor.name === 'PglitePlatform' ? batchSize.pglite : batchSize.postgresql;
  return keysetBatches(em, resource, where, kind, batch, limit);
}

async function* keysetBatches<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>, kind: ReadKind, batch: number, limit: number): AsyncGenerator<ViewRow> {
  const idColumn = (em.getMetadata().get(resource.entity).properties as Record<string, { fieldNames: string[] }>)[resource.idProperty]!.fieldNames[0]!;
  let after: unknown;
  for (let remaining = limit; remaining > 0;) {
    const page = Math.min(batch, remaining);
    const keyset = after === undefined ? where : { $and: [where, { [resource.idProperty]: { $gt: after } }] };
    const rows = await routedRead(kind, (connectionType) => viewQuery(em, resource, keyset as FilterQuery<E>, connectionType)
      .orderBy({ [resource.idProperty]: 'asc' }).limit(page).execute('all', false)) as ViewRow[];
    yield* rows;
    if (rows.length < page) return;
    remaining -= rows.length;
    after = rows.at(-1)![idColumn];
    // Let requests that arrived meanwhile run before the next batch blocks the loop again.
    await nextTurn();
  }
}

export async function* mapAsync<T, U>(items: AsyncIterable<T>, map: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}
