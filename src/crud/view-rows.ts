// Reads a resource's view rows with one SQL statement each: one record by id, or a whole result in id order.
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { ResourceDescriptor, ViewQuery, ViewRow } from './resource-descriptor.ts';
import type { ConnectionType } from '../db/read-routing.ts';

/** Every query of a view is rooted at this alias; descriptors' `selectView` joins from it. */
export const root = 'r';

/** The view's columns (and the joins they need) for the records `where` picks; no entity is hydrated. */
export function viewQuery<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>, connectionType: ConnectionType = 'write'): ViewQuery {
  const qb = (em as SqlEntityManager).createQueryBuilder(resource.entity, root, connectionType) as unknown as ViewQuery;
  return resource.selectView(qb).where(where as object);
}

export async function readRow<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, id: number): Promise<ViewRow | undefined> {
  const qb = viewQuery(em, resource, { [resource.idProperty]: id } as FilterQuery<E>);
  return (await qb.execute('get', false)) as ViewRow | undefined ?? undefined;
}
