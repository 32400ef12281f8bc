// A list's statement by the shape of its conditions: the QueryBuilder builds a shape's text once, later requests of
// the same shape only bind their values. Building the query cost more than a page's read itself. The statement is
// sent unnamed, so PostgreSQL plans it for its values (src/db/named-statements.ts, `unnamedStatement`).
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, View } from '../resource-descriptor.ts';
import type { ConnectionType } from '../../db/read-routing.ts';
import { viewQuery } from '../view-rows.ts';
import type { Locale } from '../../i18n/messages.ts';
import { inKeyOrder, type SortKey } from './list-order.ts';
import { unnamedStatement, type NamedStatement } from '../../db/named-statements.ts';

/** What a statement is sent with: its text, and the values of this request in the text's order. */
export interface BoundStatement {
  statement: NamedStatement;
  params: readonly unknown[];
}

/** How the QueryBuilder passed each value on: as it was, or as its text (ids of `bigint` columns). */
type Passing = 'as-is' | 'text';

interface Shape {
  statement: NamedStatement;
  passing: readonly Passing[];
}

/** Shapes seen: a handful per resource in practice; past the bound, statements are built each time. */
const shapeBound = 1000;
const shapes = new Map<string, Shape>();

const isPlain = (value: object) => {
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === Object.prototype || prototype === null;
};

/**
 * The condition's shape (its keys, operators, nulls and array lengths: what the text depends on) and its values, in
 * the order written; undefined when it holds anything but plain objects, arrays and primitives.
 */
function shapeOf(where: unknown, values: unknown[]): string | undefined {
  if (where === null) return 'n';
  if (where === undefined) return 'u';
  const type = typeof where;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint') {
    values.push(where);
    return 'v';
  }
  if (type !== 'object') return undefined;
  const array = Array.isArray(where);
  if (!array && !isPlain(where as object)) return undefined;
  // Built as one string as it goes: each request of a known shape makes its shape again to find it.
  let shape = array ? '[' : '{';
  let first = true;
  for (const key of Object.keys(where as object)) {
    const part = shapeOf((where as Record<string, unknown>)[key], values);
    if (part === undefined) return undefined;
    shape += `${first ? '' : ','}${JSON.stringify(key)}:${part}`;
    first = false;
  }
  return shape + (array ? ']' : '}');
}

/**
 * How each value reached the builder's parameters, when they are the condition's values in the same order (each as
 * it was, or as its text), all different from each other (so no two could have traded places): then the shape's
 * text takes any values of that shape in that order. Else undefined, and the shape is not kept.
 */
function passingOf(values: readonly unknown[], params: readonly unknown[]): Passing[] | undefined {
  if (values.length !== params.length || new Set(values.map(String)).size !== values.length) return undefined;
  const passing: Passing[] = [];
  for (const [index, value] of values.entries()) {
    const param = params[index];
    if (param === value) passing.push('as-is');
    else if (typeof param === 'string' && typeof value !== 'string' && param === String(value)) passing.push('text');
    else return undefined;
  }
  return passing;
}

/**
 * The view's rows that `where` picks, in the keys' order, at most `limit` of them (all without it): the statement and
 * its values. With `locale`, the view's values in the request's language come picked for it (src/crud/view-rows.ts).
 */
export function listStatement<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  where: FilterQuery<E>, view: View, keys: readonly SortKey[], limit: number | undefined,
  connectionType: ConnectionType, locale?: Locale,
): BoundStatement {
  const values: unknown[] = [];
  const shape = shapeOf(where, values);
  if (limit !== undefined) values.push(limit);
  const order = keys.map(({ property, descending }) => `${descending ? '-' : ''}${property}`).join(',');
  const key = shape === undefined ? undefined
    : `${resource.name} ${view} ${locale ?? '-'} ${order} ${limit === undefined ? 'all' : 'limit'} ${shape}`;
  const known = key === undefined ? undefined : shapes.get(key);
  if (known) {
    const params = values.map((value, index) => (known.passing[index] === 'text' ? String(value) : value));
    return { statement: known.statement, params };
  }
  // The builder may change the condition it is given: the values were taken before.
  const ordered = inKeyOrder(viewQuery(em, resource, where, view, connectionType, locale), keys);
  const qb = limit === undefined ? ordered : ordered.limit(limit);
  const statement = unnamedStatement(qb.getQuery());
  const params = qb.getParams();
  const passing = passingOf(values, params);
  if (key !== undefined && passing && shapes.size < shapeBound) shapes.set(key, { statement, passing });
  return { statement, params };
}

/**
 * The view's rows that `where` picks, in the keys' order, as one select with its values written in (what `COPY`
 * takes, which binds none): a known shape's text with this request's values, as the QueryBuilder would write them.
 */
export function listSelect<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  where: FilterQuery<E>, view: View, keys: readonly SortKey[], connectionType: ConnectionType, locale?: Locale,
): string {
  const { statement, params } = listStatement(em, resource, where, view, keys, undefined, connectionType, locale);
  return em.getPlatform().formatQuery(statement.sql, params);
}
