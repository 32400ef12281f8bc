// Reads a resource's view rows with one SQL statement each: one record by id, or a whole result in id order.
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { ResourceDescriptor, View, ViewQuery, ViewRow } from './resource-descriptor.ts';
import type { ConnectionType } from '../db/read-routing.ts';
import { namedStatement, runNamed, type NamedStatement } from '../db/named-statements.ts';
import { rootAlias } from './root-alias.ts';
import type { Locale } from '../i18n/messages.ts';

/**
 * The view's columns (and the joins they need) for the records `where` picks; no entity is hydrated. With `locale`,
 * values shown in the request's language come picked for it (`selectView`).
 */
export function viewQuery<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>,
  view: View = 'detail', connectionType: ConnectionType = 'write', locale?: Locale): ViewQuery {
  const qb = (em as SqlEntityManager).createQueryBuilder(resource.entity, rootAlias,
    connectionType) as unknown as ViewQuery;
  return resource.selectView(qb, view, locale).where(where as object);
}

// Each resource's fixed statements, built once: the QueryBuilder costs more than the read it builds.
const statements = { byId: new WeakMap<object, string>(), all: new WeakMap<object, string>() };

function cachedStatement<E extends object>(cache: WeakMap<object, string>, em: EntityManager,
  resource: ResourceDescriptor<E>, where: FilterQuery<E>, parameters: number): string {
  let sql = cache.get(resource);
  if (sql === undefined) {
    const qb = viewQuery(em, resource, where);
    if (qb.getParams().length !== parameters) throw new Error(
      `the ${resource.name} view query has parameters of its own`);
    sql = qb.getQuery();
    cache.set(resource, sql);
  }
  return sql;
}

/** The view of one record: the id is its one parameter. */
export function byIdStatement<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>): string {
  return cachedStatement(statements.byId, em, resource, { [resource.idProperty]: 0 } as FilterQuery<E>, 1);
}

/** The view of every row of the resource's table, without parameters. */
export function wholeViewStatement<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>): string {
  return cachedStatement(statements.all, em, resource, {} as FilterQuery<E>, 0);
}

/** One record's view row, read from the primary (a record and its ETag must be the latest committed version). */
export async function readRow<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  id: number): Promise<ViewRow | undefined> {
  return (await runNamed<ViewRow>(em, namedStatement(byIdStatement(em, resource)), [id]))[0];
}

const owned = new WeakMap<object, NamedStatement>();

/**
 * One record's view row with its owner as `__owner` (records that keep one), for a write that checks it first: one
 * statement, from the primary.
 */
export async function readOwnedRow<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  id: number): Promise<ViewRow | undefined> {
  if (!resource.owner) return readRow(em, resource, id);
  let statement = owned.get(resource);
  if (statement === undefined) {
    const meta = em.getMetadata().get(resource.entity);
    const column = (property: string) =>
      `"${(meta.properties as Record<string, { fieldNames: string[] }>)[property]!.fieldNames[0]}"`;
    statement =
      namedStatement(
      `select "v".*, "o".${column(resource.owner.property)} as "__owner" from (${byIdStatement(em, resource)}) as "v" `
      + `join "${meta.tableName}" as "o" on "o".${column(resource.idProperty)} = ?`);
    owned.set(resource, statement);
  }
  return (await runNamed<ViewRow>(em, statement, [id, id]))[0];
}
