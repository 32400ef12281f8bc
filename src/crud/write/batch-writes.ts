// A batch create's records written in one transaction: their rows, their rows in other tables, their `created`
// entries, each a few statements for the whole batch (src/crud/write/batch-statements.ts); all of them, or none.
import pg from 'pg';
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { AnyResource, WireRecord } from '../resource-descriptor.ts';
import { rowValues } from './row-values.ts';
import { entriesSql, existingSql, insertRowsSql, relatedRowsSql } from './batch-statements.ts';
import { RecordProblems } from './batch-records.ts';
import type { Written } from './row-writes.ts';
import { copySession } from './batch-copy.ts';
import { chunks, type BatchSession, type NewRow } from './batch-session.ts';

/** Multi-row statements in MikroORM's transaction, the rows as one JSON parameter per statement (PGlite's path). */
function statementSession(tx: EntityManager, resource: AnyResource): BatchSession {
  const run = async <T>(sql: string, params: unknown[]) =>
    (await (tx as SqlEntityManager).execute(sql, params, 'all')) as T[];
  return {
    run,
    async insertRows(columns, rows) {
      const made: NewRow[] = [];
      for (const part of chunks(rows)) {
        made.push(...await run<NewRow>(insertRowsSql(tx, resource, columns), [JSON.stringify(part)]));
      }
      return made;
    },
  };
}

/** Each record's row keyed by column (a relation by its key, a custom type as stored), and the union of columns. */
function rowsOf(em: EntityManager, resource: AnyResource, data: readonly object[]) {
  const columns = new Set<string>();
  const rows = data.map((record) => {
    const { columns: named, values } = rowValues(em, resource, record);
    named.forEach((column) => columns.add(column));
    return Object.fromEntries(named.map((column, index) => [column, values[index]]));
  });
  return { rows, columns: [...columns].sort() };
}

/**
 * The 400 naming each record that references a row that does not exist (a sighting's vessel), checked in the batch's
 * transaction before any row is written; no referenced record is ever created.
 */
async function checkReferences(session: BatchSession, em: EntityManager, resource: AnyResource,
  rows: ReadonlyArray<Record<string, unknown> | undefined>, problems: RecordProblems): Promise<void> {
  for (const [column, problem] of Object.entries(resource.references ?? {})) {
    const named =
      [...new Set(rows.map((row) => row?.[column]).filter((value) => value !== null && value !== undefined))];
    if (named.length === 0) continue;
    const found = await session.run<{ id: string | number }>(existingSql(em, resource, column),
      [JSON.stringify(named)]);
    const existing = new Set(found.map(({ id }) => String(id)));
    rows.forEach((row, index) => {
      const value = row?.[column];
      if (value !== null && value !== undefined && !existing.has(String(value))) {
        problems.add({ record: index + 1, ...problem });
      }
    });
  }
}

/** The related rows of every record (a vessel's names), each with its owner's new id. */
async function writeRelated(session: BatchSession, em: EntityManager, resource: AnyResource,
  records: readonly WireRecord[], ids: readonly number[]): Promise<void> {
  if (!resource.relatedRows) return;
  const byRelation = new Map<string, Array<Record<string, unknown>>>();
  records.forEach((record, index) => {
    const { relation, rows } = resource.relatedRows!(record);
    const list = byRelation.get(relation) ?? byRelation.set(relation, []).get(relation)!;
    for (const row of rows) list.push({ ...row, __owner: ids[index] });
  });
  for (const [relation, rows] of byRelation) {
    if (rows.length === 0) continue;
    const properties = Object.keys(rows[0]!).filter((name) => name !== '__owner');
    const { sql, owner, columns } = relatedRowsSql(em, resource, relation, properties);
    const asColumns = rows.map((row) => Object.fromEntries(columns.map((column, index) =>
      [column, index === 0 ? row.__owner : row[properties[index - 1]!]])));
    if (owner !== columns[0]) throw new Error('the owner column comes first');
    for (const part of chunks(asColumns)) await session.run(sql, [JSON.stringify(part)]);
  }
}

/**
 * Creates every record (`data`: the descriptor's `values` with the owner, undefined for a record the schema refused;
 * `records`: the checked bodies) with its `created` entry, in the session's transaction, ids ascending in input order:
 * their ids and versions, in input order. Or, when a record had a problem (`problems`, and the references checked
 * here), the 400 naming each, and nothing written.
 */
export async function writeBatch(session: BatchSession, em: EntityManager, resource: AnyResource,
  records: readonly WireRecord[], data: ReadonlyArray<object | undefined>, problems: RecordProblems,
  changedBy: string | null): Promise<Written[]> {
  const { rows, columns } = rowsOf(em, resource, data.filter((record) => record !== undefined));
  let next = 0;
  await checkReferences(session, em, resource,
    data.map((record) => (record === undefined ? undefined : rows[next++])), problems);
  // Past this, every record passed: `rows` are all of them, in input order.
  problems.refuseAny();
  const made = await session.insertRows(columns, rows);
  const written = made.map(({ id, version }) => ({ id: Number(id), version })).sort((a, b) => a.id - b.id);
  const ids = written.map(({ id }) => id);
  await writeRelated(session, em, resource, records, ids);
  for (const part of chunks(ids)) {
    await session.run(entriesSql(em, resource), [resource.name, changedBy, part[0], part.at(-1), JSON.stringify(part)]);
  }
  return written;
}

/** The batch in one transaction: on PostgreSQL through COPY (write/batch-copy.ts), else multi-row statements. */
export async function createBatch(em: EntityManager, resource: AnyResource, records: readonly WireRecord[],
  data: ReadonlyArray<object | undefined>, problems: RecordProblems, changedBy: string | null): Promise<Written[]> {
  const pool = await em.getConnection('write').getNativeClient();
  if (pool instanceof pg.Pool) {
    return copySession(pool, em, resource, (session) => writeBatch(session, em, resource, records, data, problems,
      changedBy));
  }
  return em.transactional((tx) => writeBatch(statementSession(tx, resource), tx, resource, records, data, problems,
    changedBy));
}
