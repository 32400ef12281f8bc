// Reads a query's rows in id order, batch by batch, so a whole collection streams in bounded memory.
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor } from './resource-descriptor.ts';
import { routedRead, type ReadKind } from '../db/read-routing.ts';

const batchSize = 1000;

/**
 * Keyset pagination rather than a cursor: PGlite cannot stream, and this keeps one code path for both
 * databases. Each batch gets a fresh fork, so the identity map never holds more than one batch.
 */
export async function* inBatches<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>, kind: ReadKind, limit = Infinity): AsyncGenerator<E> {
  let after: unknown;
  for (let remaining = limit; remaining > 0;) {
    const page = Math.min(batchSize, remaining);
    const keyset = after === undefined ? where : { $and: [where, { [resource.idProperty]: { $gt: after } }] };
    // ops (read replicas): the connection is chosen by routedRead (src/db/read-routing.ts), nowhere else.
    const rows: E[] = await routedRead(kind, (connectionType) => em.fork().find(resource.entity, keyset as never, {
      orderBy: { [resource.idProperty]: 'asc' } as never,
      limit: page,
      populate: resource.populate as never,
      connectionType,
    }));
    yield* rows;
    if (rows.length < page) return;
    remaining -= rows.length;
    after = rows.at(-1)![resource.idProperty];
  }
}

export async function* mapAsync<T, U>(items: AsyncIterable<T>, map: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield map(item);
}
