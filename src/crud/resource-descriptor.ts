// What the generic CRUD machinery needs to know about one resource; each resource is one such descriptor.
import type { EntityClass, EntityManager, FilterQuery, RawQueryFragment } from '@mikro-orm/core';
import type { Locale } from '../i18n/messages.ts';
import type { AccessRules } from '../auth/access-rules.ts';
import type { FieldProblem } from '../errors/app-errors.ts';

export interface RequestContext {
  em: EntityManager;
  locale: Locale;
}

export type WireRecord = Record<string, unknown>;
/** One row of a view query, keyed by column name or alias (`vessel_id`, `vessel_names`); `bigint` ids come as text from `pg`. */
export type ViewRow = Record<string, unknown>;
/**
 * The part of MikroORM's QueryBuilder a view query uses. Its own type tracks every selected field and join in
 * type parameters, which views do not need and which make the type checker take minutes.
 */
export interface ViewQuery {
  select(fields: Array<string | RawQueryFragment>): ViewQuery;
  join(field: string, alias: string): ViewQuery;
  where(condition: object): ViewQuery;
  orderBy(order: Record<string, 'asc' | 'desc'>): ViewQuery;
  limit(count: number): ViewQuery;
  execute(method: 'all' | 'get', mapResults: false): Promise<unknown>;
  getQuery(): string;
  getParams(): readonly unknown[];
  stream(options: { rawResults: true; chunkSize: number }): AsyncIterable<ViewRow>;
}

export interface ResourceDescriptor<E extends object = object> {
  /** The collection's path segment and the XML root element of one record. */
  name: string;
  entity: EntityClass<E>;
  /** The id property; it has the same name on the wire. */
  idProperty: keyof E & string;
  /** Relations the write path loads with the record it changes (the views read rows, not entities). */
  populate: readonly string[];
  /** List query parameters that are equality filters: wire name -> entity property (a relation compares by its id). */
  filters: Readonly<Record<string, string>>;
  /** A list query parameter that, when `true`, keeps only the caller's records: the entity property holding the creator. */
  ownerFilter?: { parameter: string; property: keyof E & string };
  access: AccessRules;
  /** Adds the columns the views read, and their joins, to a query rooted at alias `r`: one statement per read. */
  selectView(qb: ViewQuery): ViewQuery;
  listView(row: ViewRow, locale: Locale): WireRecord;
  detailView(row: ViewRow, locale: Locale): WireRecord;
  /** Copies a validated create or update body onto the entity (a replacement: absent fields are cleared). */
  write(entity: E, body: WireRecord, context: RequestContext): Promise<void>;
  /**
   * References the database checks by foreign key instead of a lookup: the referencing column, and the field
   * problem a violation is reported as (a 400, since the client named a record that does not exist).
   */
  references?: Readonly<Record<string, FieldProblem>>;
  /** The query-by-example condition for a validated example. */
  example(body: WireRecord, context: RequestContext): FilterQuery<E>;
}
