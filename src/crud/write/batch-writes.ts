// A batch create's records written in one transaction: their rows, their rows in other tables, their `created`
// entries, each a few statements for the whole batch (src/crud/write/batch-statements.ts); all of them, or none.
import pg from 'pg';
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { AnyResource, WireRecord } from '../resource-descriptor.ts';
import { rowValues } from './row-values.ts';
import { entriesSql, existingSql, insertRowsSql, relatedRowsSql } from './batch-statements.ts';
import { nextTurn, recordsPerTurn, type RecordProblems } from './batch-records.ts';
import type { Written } from './row-writes.ts';
import { copySession } from './batch-copy.ts';
import { chunks, taken, type BatchSession, type NewRow } from './batch-session.ts';

/** Multi-row statements in MikroORM's transaction, the rows as one JSON parameter per statement (PGlite's path). */
function statementSession(tx: EntityManager, resource: AnyResource): BatchSession {
  const run = async <T>(sql: string, params: unknown[]) =>
    (await (tx as SqlEntityManager).execute(sql, params, 'all')) as T[];
  return {
    run,
    async insertRows(columns, rows) {
      const made: NewRow[] = [];
      for (const part of taken(rows)) {
        made.push(...await run<NewRow>(insertRowsSql(tx, resource, columns), [JSON.stringify(part)]));
      }
      return made;
    },
  };
}

/**
 * A batch's rows as its writes take them: each record's row keyed by column (undefined for one the schema refused),
 * the union of their columns, and the rows each record has in other tables (a vessel's names), by its position.
 */
export interface BatchRows {
  rows: Array<Record<string, unknown> | undefined>;
  columns: string[];
  related: Map<string, Array<{ position: number; row: Record<string, unknown> }>>;
}

/**
 * The rows of `records` (checked, with `problems`), the owner's column set to `owner`: a relation by its key, a
 * custom type as stored. Each record is dropped from `records` once its rows are made, and the event loop turns every
 * thousand: the batch is held once, as records or as rows, never both whole.
 */
export async function batchRows(em: EntityManager, resource: AnyResource, records: WireRecord[],
  problems: RecordProblems, owner: Record<string, unknown>): Promise<BatchRows> {
  const columns = new Set<string>();
  const related: BatchRows['related'] = new Map();
  const rows: BatchRows['rows'] = [];
  for (const [index, record] of records.entries()) {
    if (index > 0 && index % recordsPerTurn === 0) await nextTurn();
    records[index] = undefined as never;
    // A record the schema refused has no values; its references are not looked up.
    if (problems.has(index + 1)) {
      rows.push(undefined);
      continue;
    }
    const { columns: named, values } = rowValues(em, resource, { ...resource.values(record), ...owner });
    const row: Record<string, unknown> = {};
    named.forEach((column, at) => {
      columns.add(column);
      row[column] = values[at];
    });
    rows.push(row);
    if (resource.relatedRows) {
      const { relation, rows: own } = resource.relatedRows(record);
      const list = related.get(relation) ?? related.set(relation, []).get(relation)!;
      for (const one of own) list.push({ position: index, row: one });
    }
  }
  records.length = 0;
  return { rows, columns: [...columns].sort(), related };
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
  related: BatchRows['related'], ids: readonly number[]): Promise<void> {
  for (const [relation, list] of related) {
    if (list.length === 0) continue;
    const properties = Object.keys(list[0]!.row);
    const { sql, owner, columns } = relatedRowsSql(em, resource, relation, properties);
    if (owner !== columns[0]) throw new Error('the owner column comes first');
    for (const part of chunks(list)) {
      const asColumns = part.map(({ position, row }) => Object.fromEntries(columns.map((column, index) =>
        [column, index === 0 ? ids[position] : row[properties[index - 1]!]])));
      await session.run(sql, [JSON.stringify(asColumns)]);
    }
  }
}

/**
 * Creates every record of `batch` (rows made by `batchRows`; undefined for a record the schema refused) with its
 * `created` entry, in the session's transaction, ids ascending in input order: their ids and versions, in input order.
 * Or, when a record had a problem (`problems`, and the references checked here), the 400 naming each, and nothing
 * written. The rows are dropped as they are sent.
 */
export async function writeBatch(session: BatchSession, em: EntityManager, resource: AnyResource, batch: BatchRows,
  problems: RecordProblems, changedBy: string | null): Promise<Written[]> {
  await checkReferences(session, em, resource, batch.rows, problems);
  // Past this, every record passed: `rows` are all of them, in input order.
  problems.refuseAny();
  const made = await session.insertRows(batch.columns, batch.rows);
  const written = made.map(({ id, version }) => ({ id: Number(id), version })).sort((a, b) => a.id - b.id);
  const ids = written.map(({ id }) => id);
  await writeRelated(session, em, resource, batch.related, ids);
  for (const part of chunks(ids)) {
    await session.run(entriesSql(em, resource), [resource.name, changedBy, part[0], part.at(-1), JSON.stringify(part)]);
  }
  return written;
}

/** The batch in one transaction: on PostgreSQL through COPY (write/batch-copy.ts), else multi-row statements. */
export async function createBatch(em: EntityManager, resource: AnyResource, batch: BatchRows,
  problems: RecordProblems, changedBy: string | null): Promise<Written[]> {
  const pool = await em.getConnection('write').getNativeClient();
  if (pool instanceof pg.Pool) {
    return copySession(pool, em, resource, (session) => writeBatch(session, em, resource, batch, problems,
      changedBy));
  }
  return em.transactional((tx) => writeBatch(statementSession(tx, resource), tx, resource, batch, problems,
    changedBy));
}
