// The one-statement writes of a one-row record with their history entries, built once per resource and shape (the
// columns set, whether the caller must own the record) from its metadata and its view query, each a named statement.
import type { EntityManager } from '@mikro-orm/core';
import type { AnyResource } from '../resource-descriptor.ts';
import { wholeViewStatement } from '../view-rows.ts';
import { entryColumns, feedFilters } from './record-history.ts';
import { namedStatement, type NamedStatement } from '../../db/named-statements.ts';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface Names { table: string; id: string; version: string; owner?: string }

function namesOf(em: EntityManager, resource: AnyResource): Names {
  const meta = em.getMetadata().get(resource.entity);
  const column = (property: string) => quote(meta.properties[property]!.fieldNames[0]!);
  return {
    table: quote(meta.tableName), id: column(resource.idProperty), version: column(meta.versionProperty),
    ...(resource.owner && { owner: column(resource.owner.property) }),
  };
}

/**
 * The entry's `scope`, `{"vesselId": [before, after]}`, from the row before (alias `before`) and after (`after`) the
 * change, either of which may be absent; one value when both are the same.
 */
export function scopeSql(em: EntityManager, resource: AnyResource, before: string | undefined,
  after: string | undefined): string {
  const meta = em.getMetadata().get(resource.entity);
  const members = feedFilters(resource).map(([name, property]) => {
    const column = quote(meta.properties[property]!.fieldNames[0]!);
    const values = before && after
      ? `case when ${before}.${column} is not distinct from ${after}.${column} then ` +
        `jsonb_build_array(${before}.${column}) else jsonb_build_array(${before}.${column}, ${after}.${column}) end`
      : `jsonb_build_array(${before ?? after}.${column})`;
    return `'${name}', ${values}`;
  });
  return `jsonb_build_object(${members.join(', ')})`;
}

/**
 * The entry of the row written (alias `w`) by a WITH query named as the table, which hides the table from the rest of
 * the statement, so the resource's own view query, as it is, reads the written row: `?`s are the collection and the
 * author.
 */
function entrySql(em: EntityManager, resource: AnyResource, names: Names, change: 'created' | 'updated', scope: string,
  where = ''): string {
  return `"entry" as (insert into "record_change" (${entryColumns}) select ?, "w".${names.id}, "w".${names.version}, ` +
    `'${change}', clock_timestamp(), ?, ${scope}, to_jsonb("v") `
    + `from (${wholeViewStatement(em, resource)}) as "v", ${names.table} as "w"${where})`;
}

const cache = new WeakMap<AnyResource, Map<string, NamedStatement>>();

function cached(resource: AnyResource, key: string, build: () => string): NamedStatement {
  let statements = cache.get(resource);
  if (!statements) cache.set(resource, statements = new Map());
  let statement = statements.get(key);
  if (statement === undefined) statements.set(key, statement = namedStatement(build()));
  return statement;
}

/** Parameters: the values of `columns`, the collection, the author. Answers the new row's `id` and `version`. */
export function insertStatement(em: EntityManager, resource: AnyResource, columns: readonly string[]): NamedStatement {
  return cached(resource, `insert ${columns.join(',')}`, () => {
    const names = namesOf(em, resource);
    return `with ${names.table} as (insert into ${names.table} (${columns.map(quote).join(', ')}) values ` +
      `(${columns.map(() => '?').join(', ')}) returning *), `
      + `${entrySql(em, resource, names, 'created', scopeSql(em, resource, undefined, '"w"'))} `
      + `select ${names.id} as "id", ${names.version} as "version" from ${names.table}`;
  });
}

/**
 * A replacement where the row still has the stated version (and, `owned`, the caller as its owner): the version is
 * raised only when a value changes, and only then is an entry written. Parameters: the values of `columns`, the same
 * values again (the comparison), the id, the stated version, [the owner,] the collection, the author, the stated
 * version. Answers the row's `id` and `version`, or no row when none matched.
 */
export function updateStatement(em: EntityManager, resource: AnyResource, columns: readonly string[],
  owned: boolean): NamedStatement {
  return cached(resource, `update ${owned} ${columns.join(',')}`, () => {
    const names = namesOf(em, resource);
    const scoped = feedFilters(resource).length > 0;
    const set = columns.map((column) => `${quote(column)} = ?`).join(', ');
    const changed = `(${columns.map((column) => `"t".${quote(column)}`).join(', ')}) is distinct from ` +
      `(${columns.map(() => '?').join(', ')})`;
    // The row as it was, for the entry's scope before the change: the same row, read in the statement's snapshot.
    const before = scoped ? ` from ${names.table} as "o"` : '';
    const where = [`"t".${names.id} = ?`, `"t".${names.version} = ?`, ...scoped ? [`"o".${names.id} = "t".${names.id}`]
      : [], ...owned ? [`"t".${names.owner!} = ?`] : []];
    return `with ${names.table} as (update ${names.table} as "t" set ${set}, `
      + `${names.version} = "t".${names.version} + (${changed})::int${before} `
      + `where ${where.join(' and ')} returning "t".*`
      + `${scoped ? `, ${scopeSql(em, resource, '"o"', '"t"')} as "__scope"` : ''}), `
      + `${entrySql(em, resource, names, 'updated', scoped ? '"w"."__scope"' : `'{}'::jsonb`,
        ` where "w".${names.version} <> ?`)} `
      + `select ${names.id} as "id", ${names.version} as "version" from ${names.table}`;
  });
}

/**
 * A delete of the row [where it still has the stated version] [and the caller owns it], with its `deleted` entry.
 * Parameters: the id, [the version,] [the owner,] the collection, the author. Answers the row's `id` and `version`.
 */
export function deleteStatement(em: EntityManager, resource: AnyResource, versioned: boolean,
  owned: boolean): NamedStatement {
  return cached(resource, `delete ${versioned} ${owned}`, () => {
    const names = namesOf(em, resource);
    const where = [`${names.id} = ?`, ...versioned ? [`${names.version} = ?`] : [], ...owned ? [`${names.owner!} = ?`]
      : []];
    return `with ${names.table} as (delete from ${names.table} where ${where.join(' and ')} returning *), `
      + `"entry" as (insert into "record_change" (${entryColumns}) select ?, "w".${names.id}, "w".${names.version}, `
      + `'deleted', clock_timestamp(), ?, `
      + `${scopeSql(em, resource, '"w"', undefined)}, null from ${names.table} as "w") `
      + `select ${names.id} as "id", ${names.version} as "version" from ${names.table}`;
  });
}

/** What tells a write that matched nothing apart: the row's version [and owner], or no row. Parameter: the id. */
export function stateStatement(em: EntityManager, resource: AnyResource): NamedStatement {
  return cached(resource, 'state', () => {
    const names = namesOf(em, resource);
    return `select ${names.version} as "version"${names.owner ? `, ${names.owner} as "owner"` : ''} from ` +
      `${names.table} where ${names.id} = ?`;
  });
}
