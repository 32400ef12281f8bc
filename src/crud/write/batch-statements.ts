// The SQL of a batch create, built from the entity metadata and the resource's view query, once per resource and set
// of columns: the records' rows, their rows in other tables and their `created` entries, each one statement for many
// records, whose rows travel as one JSON parameter (no statement per record, no bound on parameters per statement).
import type { EntityManager, EntityMetadata, FilterQuery } from '@mikro-orm/core';
import type { AnyResource } from '../resource-descriptor.ts';
import { viewQuery } from '../view-rows.ts';
import { entryColumns } from './record-history.ts';
import { scopeSql } from './row-statements.ts';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

const columnOf = (meta: EntityMetadata, property: string) => quote(meta.properties[property]!.fieldNames[0]!);

/** The JSON array parameter's rows, typed as the table's own row type, in the order the array holds them. */
const rowsOf = (table: string) => `jsonb_populate_recordset(null::${table}, ?::jsonb) with ordinality as "r"`;

const cache = new WeakMap<AnyResource, Map<string, string>>();

function cached(resource: AnyResource, key: string, build: () => string): string {
  let statements = cache.get(resource);
  if (!statements) cache.set(resource, statements = new Map());
  let sql = statements.get(key);
  if (sql === undefined) statements.set(key, sql = build());
  return sql;
}

/**
 * An INSERT … SELECT answered as one row, `ids`: the new rows' ids in decimal, separated by commas, in the order its
 * RETURNING gives them, which is the order they were inserted in (src/crud/write/batch-session.ts, NewIds).
 */
function insertAnsweringIds(em: EntityManager, resource: AnyResource, columns: readonly string[],
  select: string): string {
  const meta = em.getMetadata().get(resource.entity);
  const version = columnOf(meta, meta.versionProperty);
  return `with "new" as (insert into ${quote(meta.tableName)} (${[...columns.map(quote), version].join(', ')}) `
    + `${select} returning ${columnOf(meta, resource.idProperty)} as "id") `
    + `select string_agg("id"::text, ',') as "ids" from "new"`;
}

/**
 * The records' rows from a JSON array of objects keyed by `columns`; new records start at version 0. Its ids come from
 * the table's sequence in the array's order, so ascending ids are input order. Answers the ids (NewIds).
 */
export function insertRowsSql(em: EntityManager, resource: AnyResource, columns: readonly string[]): string {
  return cached(resource, `rows ${columns.join(',')}`, () => insertAnsweringIds(em, resource, columns,
    `select ${[...columns.map((column) => `"r".${quote(column)}`), '0'].join(', ')} `
    + `from ${rowsOf(quote(em.getMetadata().get(resource.entity).tableName))} order by "r"."ordinality"`));
}

/** The table and columns of a one-to-many relation's rows: its owner's column first, then `properties`' columns. */
export function relatedRowsSql(em: EntityManager, resource: AnyResource, relation: string,
  properties: readonly string[]): { sql: string; owner: string; columns: string[] } {
  const meta = em.getMetadata().get(resource.entity);
  const target = meta.properties[relation]!.targetMeta!;
  const owner = target.properties[meta.properties[relation]!.mappedBy]!.fieldNames[0]!;
  const columns = [owner, ...properties.map((property) => target.properties[property]!.fieldNames[0]!)];
  const sql = cached(resource, `related ${relation} ${properties.join(',')}`, () => {
    const table = quote(target.tableName);
    return `insert into ${table} (${columns.map(quote).join(', ')}) `
      + `select ${columns.map((column) => `"r".${quote(column)}`).join(', ')} from ${rowsOf(table)} `
      + 'order by "r"."ordinality"';
  });
  return { sql, owner, columns };
}

/**
 * The `created` entries of the records whose ids the JSON array parameter holds, in id order (input order): each the
 * record's view row as this transaction sees it. The view is read between the lowest and the highest new id (its two
 * first parameters), so only the new records' rows are read, by the id's index. Then: the collection, the author.
 */
export function entriesSql(em: EntityManager, resource: AnyResource): string {
  return cached(resource, 'entries', () => {
    const meta = em.getMetadata().get(resource.entity);
    const [table, id] = [quote(meta.tableName), columnOf(meta, resource.idProperty)];
    const view = viewQuery(em, resource, { [resource.idProperty]: { $gte: 0, $lte: 0 } } as FilterQuery<object>);
    const version = columnOf(meta, meta.versionProperty);
    return `insert into "record_change" (${entryColumns}) select ?, "w".${id}, "w".${version}, 'created', `
      + `clock_timestamp(), ?, ${scopeSql(em, resource, undefined, '"w"')}, to_jsonb("v") `
      + `from (${view.getQuery()}) as "v" join ${table} as "w" on "w".${id} = "v".${id} `
      + `where "w".${id} in (select ("n")::bigint from jsonb_array_elements_text(?::jsonb) as "n") order by "w".${id}`;
  });
}

/** Which of the ids in the JSON array parameter name a row of the table that `column` of the resource references. */
export function existingSql(em: EntityManager, resource: AnyResource, column: string): string {
  return cached(resource, `existing ${column}`, () => {
    const meta = em.getMetadata().get(resource.entity);
    const reference = meta.props.find((prop) => prop.fieldNames?.[0] === column)!.targetMeta!;
    const key = columnOf(reference, reference.primaryKeys[0]!);
    return `select ${key} as "id" from ${quote(reference.tableName)} `
      + `where ${key} in (select ("n")::bigint from jsonb_array_elements_text(?::jsonb) as "n")`;
  });
}

/** The temporary table COPY fills: the records' columns as the table types them, and each row's input position. */
export function copyTableSql(em: EntityManager, resource: AnyResource, columns: readonly string[]): string {
  return cached(resource, `copy table ${columns.join(',')}`, () => {
    const table = quote(em.getMetadata().get(resource.entity).tableName);
    return `create temporary table "batch_rows" on commit drop as select 0::integer as "__position"`
      + `${columns.map((column) => `, ${quote(column)}`).join('')} from ${table} with no data`;
  });
}

/** COPY's statement into that table, in PostgreSQL's text format. */
export const copyFromSql = (columns: readonly string[]): string =>
  `copy "batch_rows" (${['__position', ...columns].map(quote).join(', ')}) from stdin`;

/**
 * One INSERT … SELECT of every copied row, in input order (ids from the sequence in that order), at version 0. Answers
 * the ids (NewIds).
 */
export function insertCopiedSql(em: EntityManager, resource: AnyResource, columns: readonly string[]): string {
  return cached(resource, `copied ${columns.join(',')}`, () => insertAnsweringIds(em, resource, columns,
    `select ${[...columns.map(quote), '0'].join(', ')} from "batch_rows" order by "__position"`));
}
