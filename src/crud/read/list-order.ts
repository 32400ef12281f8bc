// The order of a list (`sort=-sightingDate,sightingId`, docs/behaviour.md#list) and the keyset that continues it after
// a row.
import { QueryOrder, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import { BadRequest } from '../../errors/app-errors.ts';
import type { AnyResource, ViewQuery, ViewRow } from '../resource-descriptor.ts';
import { localDateTimeText } from '../../db/local-date-time-text.ts';
import { normalizeLocalDateTime } from '../../validation/formats.ts';
import type { Locale } from '../../i18n/messages.ts';

type Kind = 'number' | 'timestamp' | 'text';

export interface SortKey {
  property: string;
  /** The view row's column for it. */
  column: string;
  descending: boolean;
  /** What a value of it is: a cursor's values are checked by it before they reach a query. */
  kind: Kind;
  /** Whether a row may hold no value for it: only then does the keyset look for nulls after the values. */
  nullable: boolean;
  /** A computed property (a formula, such as a vessel's name in a language): no column of the view selects it. */
  computed: boolean;
}

const kindOf = (columnType = ''): Kind => (/int|serial|numeric/.test(columnType) ? 'number'
  : columnType.startsWith('timestamp') ? 'timestamp' : 'text');

/** The property a `sort` field orders by: its own, a filter's other name, or the caller's language's (a name). */
function sortProperty(resource: AnyResource, field: string, locale: Locale): string {
  if (resource.localizedSortProperties && Object.hasOwn(resource.localizedSortProperties, field))
    return resource.localizedSortProperties[field]!(locale);
  return resource.filterProperties && Object.hasOwn(resource.filterProperties, field)
    ? resource.filterProperties[field]! : field;
}

/**
 * The list's order: the `sort` fields (the contract admitted them), then the id ascending to break ties; a name in
 * `locale`, the language the list's names are shown in.
 */
export function listOrder(em: EntityManager, resource: AnyResource, sort?: string, locale: Locale = 'en',
): readonly SortKey[] {
  // Most lists are in the id's order: made once per resource (the entities' metadata is the same in every fork).
  if (sort === undefined) {
    let byId = idOrders.get(resource);
    if (!byId) idOrders.set(resource, byId = order(em, resource, undefined, locale));
    return byId;
  }
  return order(em, resource, sort, locale);
}

const idOrders = new WeakMap<AnyResource, readonly SortKey[]>();

function order(em: EntityManager, resource: AnyResource, sort: string | undefined, locale: Locale): SortKey[] {
  const properties =
    em.getMetadata().get(resource.entity).properties as Record<string, { fieldNames: string[]; columnTypes: string[
    ]; nullable?: boolean; formula?: unknown }>;
  const key = (field: string, descending: boolean): SortKey => {
    const property = sortProperty(resource, field, locale);
    const { fieldNames, columnTypes, nullable, formula } = properties[property]!;
    return { property, column: fieldNames[0]!, descending, kind: kindOf(columnTypes[0]), nullable: nullable === true,
      computed: formula !== undefined };
  };
  const keys = (sort ? sort.split(',') : []).map((field) => key(field.replace(/^-/, ''), field.startsWith('-')));
  return [...keys.filter(({ property }) => property !== resource.idProperty),
    key(resource.idProperty, keys.find(({ property }) => property === resource.idProperty)?.descending ?? false)];
}

/**
 * `qb` in the keys' order, selecting the computed keys too: a cursor is made of a row's key values, so each must be a
 * column of the row.
 */
export function inKeyOrder(qb: ViewQuery, keys: readonly SortKey[]): ViewQuery {
  const computed = keys.filter((key) => key.computed).map((key) => key.property);
  return (computed.length ? qb.addSelect(computed) : qb).orderBy(orderBy(keys));
}

/**
 * The list's `sort` with the orders of the resource's leading parameters before it (`vesselNameOrder=desc&sort=
 * sightingDate` is `-vesselName,sightingDate`); undefined when neither is given (the list then pages by id).
 */
export function leadingSort(resource: AnyResource, query: Record<string, unknown>): string | undefined {
  const leading = Object.entries(resource.leadingOrders ?? {}).filter(([parameter]) => query[parameter] !== undefined)
    .map(([parameter, field]) => `${query[parameter] === 'desc' ? '-' : ''}${field}`);
  const sort = [...leading, ...typeof query.sort === 'string' ? [query.sort] : []].join(',');
  return sort || undefined;
}

/** ORDER BY for the keys: nulls last in both directions (docs/behaviour.md#list). */
export function orderBy(keys: readonly SortKey[]): Record<string, QueryOrder>[] {
  return keys.map(({ property, descending }) => ({ [property]: descending ? QueryOrder.DESC_NULLS_LAST
    : QueryOrder.ASC_NULLS_LAST }));
}

/** A value as it travels in a cursor: numbers as numbers, a timestamp as the wire's local date-time text. */
function portable(key: SortKey, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (key.kind === 'number') return Number(value);
  return key.kind === 'timestamp' ? localDateTimeText(value) : String(value);
}

/** A cursor's value is one the key can hold; anything else never reaches SQL (a made-up cursor is a 400, not a 500). */
function holds(key: SortKey, value: unknown): boolean {
  if (value === null) return true;
  if (key.kind === 'number') return Number.isSafeInteger(value);
  if (typeof value !== 'string' || value.length > 4000 || value.includes('\0')) return false;
  return key.kind === 'text' || normalizeLocalDateTime(value) !== undefined;
}

/**
 * The rows after `values` (of `keys`) in the keys' order: `(k1 > v1) or (k1 = v1 and k2 > v2) or …`, nulls last. A key
 * that cannot be null (the id) gets no `or k is null`: that would keep its index from starting at the value, and every
 * batch of a long read would walk the index from its first entry again.
 */
export function keysetAfter(keys: readonly SortKey[], values: readonly unknown[]): FilterQuery<object> {
  const equal = (key: SortKey, value: unknown) => ({ [key.property]: value === null ? null : value });
  const beyond = (key: SortKey, value: unknown) => {
    const after = { [key.property]: { [key.descending ? '$lt' : '$gt']: value } };
    return key.nullable ? { $or: [after, { [key.property]: null }] } : after;
  };
  const branches = keys.flatMap((key, i) => (values[i] === null ? [] : [{ $and: [...keys.slice(0, i).map((before,
    j) => equal(before, values[j])), beyond(key, values[i])] }]));
  return { $or: branches } as FilterQuery<object>;
}

export const keyValues = (keys: readonly SortKey[], row: ViewRow): unknown[] =>
  keys.map((key) => portable(key, row[key.column]));

/** The opaque cursor of a sorted page's last row: its key values, base64url-encoded JSON. */
export const cursorOf = (values: readonly unknown[]): string =>
  Buffer.from(JSON.stringify(values)).toString('base64url');

/** The key values a cursor holds; a cursor no `Link` gave (another sort, or made up) is a 400 on `cursor`. */
export function cursorValues(cursor: string, keys: readonly SortKey[]): unknown[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  if (!Array.isArray(values) || values.length !== keys.length || !keys.every((key, i) => holds(key, values[i]))) {
    throw new BadRequest('error.cursor.invalid', {}, {}, 'cursor');
  }
  return values;
}
