// How many records a list's filters match (`Prefer: count=exact`, docs/behaviour.md#list), without holding up other
// readers.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { ResourceDescriptor } from '../resource-descriptor.ts';
import { readsByCursor } from '../../db/orm.ts';
import { rootAlias } from '../root-alias.ts';

/** Records one slice of a count on PGlite reads: a few milliseconds of its one connection. */
export const countSlice = 20_000;

/**
 * On PostgreSQL one statement, run on a connection of its own beside the page's. PGlite runs every statement in this
 * process, one at a time: a count over half a million rows would hold every other request behind it, so it counts in
 * slices along the id, and other requests' statements take their turn between two slices.
 */
export async function countMatching<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  conditions: FilterQuery<E>): Promise<number> {
  const sql = em as SqlEntityManager;
  const fromRoot = () => sql.createQueryBuilder(resource.entity, rootAlias);
  if (readsByCursor(em)) return fromRoot().where(conditions as never).getCount();
  const id = resource.idProperty;
  const idColumn =
    (em.getMetadata().get(resource.entity).properties as Record<string, { fieldNames: string[] }>)[id]!.fieldNames[0]!;
  let total = 0;
  for (let after: number | undefined; ;) {
    const where = after === undefined ? conditions : { $and: [conditions, { [id]: { $gt: after } }] };
    const slice = fromRoot().select(id as never).where(where as never).orderBy({ [id]: 'asc' } as never)
      .limit(countSlice);
    const counted = await sql.createQueryBuilder(slice, 's')
      .select([raw('count(*) as "matched"'), raw(`max("s"."${idColumn}") as "last"`)])
      .execute('get', false) as { matched: number | string; last: number | string | null };
    total += Number(counted.matched);
    if (Number(counted.matched) < countSlice) return total;
    after = Number(counted.last);
    await nextTurn();
  }
}
