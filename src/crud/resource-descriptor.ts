// What the generic CRUD machinery needs to know about one resource; each resource is one such descriptor.
import type { EntityClass, EntityData, EntityManager, FilterQuery, RawQueryFragment } from '@mikro-orm/core';
import type { RequestHandler } from 'express';
import type { Locale } from '../i18n/messages.ts';
import type { AccessRules, Role } from '../auth/access-rules.ts';
import type { FieldProblem } from '../errors/app-errors.ts';
import type { RecordEndCell } from '../http/csv-record-ends.ts';

export interface RequestContext {
  em: EntityManager;
  locale: Locale;
}

export type WireRecord = Record<string, unknown>;
/**
 * One row of a view query, keyed by column name or alias (`vessel_id`, `vessel_names`); `bigint` ids come as text from
 * `pg`.
 */
export type ViewRow = Record<string, unknown>;
/** Which view a query's rows are for: a list reads only what its list view shows; details read the record whole. */
export type View = 'list' | 'detail';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationShape {
  method: Method;
  /** The path below `/{resource}`: `''`, `/{id}`, `/{id}/versions`. */
  below: string;
  /** A list's or a query by example's: the view of every row it answers. */
  view?: View;
  /** A create's: it answers the new record's detail view, whatever `Prefer` says. */
  representation?: boolean;
  /**
   * Bound only for the resources whose contract declares it (a query by example in the list view: sightings; the
   * deprecated version read: the collections older than its deprecation).
   */
  optional?: boolean;
  roles(access: AccessRules): Role[];
  /** Those of its roles that reach only the caller's own records; none unless said. */
  ownRecordsOnly?(access: AccessRules): Role[];
}

/**
 * The part of MikroORM's QueryBuilder a view query uses. Its own type tracks every selected field and join in
 * type parameters, which views do not need and which make the type checker take minutes.
 */
export interface ViewQuery {
  select(fields: Array<string | RawQueryFragment>): ViewQuery;
  addSelect(fields: string[]): ViewQuery;
  join(field: string, alias: string): ViewQuery;
  leftJoinLateral(subquery: RawQueryFragment, alias: string, condition: object): ViewQuery;
  where(condition: object): ViewQuery;
  orderBy(order: ReadonlyArray<Record<string, string>>): ViewQuery;
  limit(count: number): ViewQuery;
  execute(method: 'all' | 'get', mapResults: false): Promise<unknown>;
  getQuery(): string;
  /** The statement with its values inlined, as a cursor sends it. */
  getFormattedQuery(): string;
  getParams(): readonly unknown[];
}

/** The entity's text properties: where a record's owner, a token subject, can be kept. */
type TextProperty<E> = { [K in keyof E & string]: E[K] extends string | null | undefined ? K
  : never }[keyof E & string];

interface DescriptorFields<E extends object> {
  /** The collection's path segment and the XML root element of one record; openapi.yaml's paths are `/{name}…`. */
  name: string;
  entity: EntityClass<E>;
  /** The id property; it has the same name on the wire. */
  idProperty: keyof E & string;
  /** Relations the write path loads with the record it changes (the views read rows, not entities). */
  populate: readonly string[];
  /** List parameters (openapi.yaml) whose entity property has another name (src/crud/read/list-filters.ts). */
  filterProperties?: Readonly<Record<string, string>>;
  /**
   * `sort` fields that order by a text in the caller's language (a sighting's `vesselName`): the entity's computed
   * property for that language (src/crud/read/list-order.ts).
   */
  localizedSortProperties?: Readonly<Record<string, (locale: Locale) => string>>;
  /**
   * Query parameters (`asc`/`desc`) that order a list by a field before its `sort`: `vesselNameOrder=desc` is
   * `sort=-vesselName,…` (src/crud/read/list-order.ts, `leadingSort`).
   */
  leadingOrders?: Readonly<Record<string, string>>;
  /**
   * Adds the columns a view reads, and their joins, to a query rooted at `rootAlias` (src/crud/root-alias.ts, whose
   * `rootFields` and `rootColumn` name the root's fields): one statement per read. A list reads the columns of
   * `listView` (the sortable fields among them), a detail those of `detailView`. With the request's `locale`, a value
   * shown in its language may be picked by the query itself (the views read either kind of row).
   */
  selectView(qb: ViewQuery, view: View, locale?: Locale): ViewQuery;
  listView(row: ViewRow, locale: Locale): WireRecord;
  detailView(row: ViewRow, locale: Locale): WireRecord;
  /**
   * The view's CSV cells as SQL over its row, by column name (src/crud/fields.ts): present when PostgreSQL can write
   * every one of them, as an export asks it to.
   */
  sqlCells?(view: View): Readonly<Record<string, string>> | undefined;
  /** Of those cells, the ones PostgreSQL writes for less where they end a record (src/crud/fields.ts). */
  recordEndCells?(view: View): Readonly<Record<string, RecordEndCell>>;
  /**
   * The record's own columns from a validated create or update body, a relation by its key (a replacement: an absent
   * field is null). Plain data: a one-row record is written by one statement (write/row-writes.ts), no entity made.
   */
  values(body: WireRecord): EntityData<E>;
  /** Records of other tables that are part of this one (a vessel's names), written through the unit of work. */
  writeRelated?(entity: E, body: WireRecord, em: EntityManager): void;
  /**
   * A batch create's rows of other tables for one record (a vessel's names): the one-to-many relation they fill and
   * each row's values by property, its owner left out (the machinery sets it to the new record).
   */
  relatedRows?(body: WireRecord): { relation: string; rows: ReadonlyArray<Record<string, unknown>> };
  /**
   * References the database checks by foreign key instead of a lookup: the referencing column, and the field
   * problem a violation is reported as (a 400, since the client named a record that does not exist).
   */
  references?: Readonly<Record<string, FieldProblem>>;
  /**
   * Operations of this collection alone, beside the generic set (the vessel's observers); openapi.yaml declares each.
   */
  ownOperations?: ReadonlyArray<OperationShape & { kind: string; handle: RequestHandler }>;
  /**
   * The keys any record holds in each map of its detail view (a vessel's languages, by field path `vesselName`): a
   * CSV writes a column per key (src/http/csv-columns.ts), and must name them all in its header row.
   */
  mapKeys?(em: EntityManager): Promise<Readonly<Record<string, readonly string[]>>>;
  /** Query by example for the fields the generic rule (src/crud/read/query-by-example.ts) does not fit. */
  exampleFields?: Readonly<Record<string, (value: unknown, context: RequestContext) => FilterQuery<E>>>;
}

/**
 * Records that belong to their creator (`change: 'creator'`): `property` keeps the creator's token subject (set on
 * create, checked on update and delete, never in a view); the list parameter `true` keeps only the caller's.
 */
type Ownership<E> =
  | { access: AccessRules & { change: 'creator' }; owner: { property: TextProperty<E>; listParameter: string } }
  | { access: AccessRules & { change: Role }; owner?: undefined };

export type ResourceDescriptor<E extends object = object> = DescriptorFields<E> & Ownership<E>;

// Descriptors of different entities side by side; each was type-checked against its own entity where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResource = ResourceDescriptor<any>;
