// What the generic CRUD machinery needs to know about one resource; each resource is one such descriptor.
import type { EntityClass, EntityManager, FilterQuery, RawQueryFragment } from '@mikro-orm/core';
import type { Locale } from '../i18n/messages.ts';
import type { AccessRules, Role } from '../auth/access-rules.ts';
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

/** The entity's properties that hold a text: where a record's owner, a token subject, can be kept. */
export type TextProperty<E> = { [K in keyof E & string]: E[K] extends string | null | undefined ? K : never }[keyof E & string];

/** Records that belong to whoever created them (contract B, Authorization). */
export interface Owner<E> {
  /** Set to the creator's token subject on create, compared with the caller's on update and delete; never in a view. */
  property: TextProperty<E>;
  /** The list query parameter that, when `true`, keeps only the caller's records. */
  listParameter: string;
}

/** A field of an example that the generic rule (a text contains, anything else equals) does not fit. */
export type ExampleField<E> = (value: unknown, context: RequestContext) => FilterQuery<E>;

interface DescriptorFields<E extends object> {
  /** The collection's path segment and the XML root element of one record; openapi.yaml's paths are `/{name}…`. */
  name: string;
  entity: EntityClass<E>;
  /** The id property; it has the same name on the wire. */
  idProperty: keyof E & string;
  /** Relations the write path loads with the record it changes (the views read rows, not entities). */
  populate: readonly string[];
  /**
   * The list's query parameters (openapi.yaml) are equality filters on the entity property of the same name; only
   * one named otherwise is listed here: wire name -> entity property (a relation compares by its id).
   */
  filterProperties?: Readonly<Record<string, string>>;
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
  /** Query by example for the fields the generic rule does not fit (src/crud/query-by-example.ts), by field name. */
  exampleFields?: Readonly<Record<string, ExampleField<E>>>;
}

/** Update and delete by the record's creator need to know where the creator is kept; only then. */
type Ownership<E> =
  | { access: AccessRules & { change: 'creator' }; owner: Owner<E> }
  | { access: AccessRules & { change: Role }; owner?: undefined };

export type ResourceDescriptor<E extends object = object> = DescriptorFields<E> & Ownership<E>;

// Descriptors of different entities side by side; each was type-checked against its own entity where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResource = ResourceDescriptor<any>;
