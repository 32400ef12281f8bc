// A batch create's records written in one transaction: their rows, their rows in other tables, their `created`
// entries, each a few statements for the whole batch (src/crud/write/batch-statements.ts); all of them, or none.
import pg from 'pg';
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { AnyResource } from '../resource-descriptor.ts';
import type { BatchRows } from './batch-rows.ts';
import { entriesSql, existingSql, insertRowsSql, relatedRowsSql } from './batch-statements.ts';
import { turns, type RecordProblems } from './batch-records.ts';
import { copySession } from './batch-copy.ts';
import { chunks, rowsPerStatement, type BatchSession, type NewIds } from './batch-session.ts';

/** Multi-row statements in MikroORM's transaction, the rows as one JSON parameter per statement (PGlite's path). */
function statementSession(tx: EntityManager, resource: AnyResource): BatchSession {
  // PGlite runs each statement in this process and answers it without the event loop turning: a batch's statements
  // one after the other would hold it for all of them (seconds), and a request that came meanwhile would not even be
  // read. The loop turns between them.
  const turn = turns();
  const run = async <T>(sql: string, params: unknown[]) => {
    await turn();
    return (await (tx as SqlEntityManager).execute(sql, params, 'all')) as T[];
  };
  return {
    run,
    async insertRows(batch) {
      const made: NewIds[] = [];
      for (const part of batch.parts(rowsPerStatement)) {
        made.push(...await run<NewIds>(insertRowsSql(tx, resource, batch.columns), [JSON.stringify(part)]));
      }
      return made;
    },
  };
}

/**
 * The 400 naming each record that references a row that does not exist (a sighting's vessel), checked in the batch's
 * transaction before any row is written; no referenced record is ever created.
 */
async function checkReferences(session: BatchSession, em: EntityManager, resource: AnyResource,
  batch: BatchRows, problems: RecordProblems): Promise<void> {
  // Each pass over the batch's records lets the event loop turn every millisecond (batch-records.ts).
  const turn = turns();
  for (const [column, problem] of Object.entries(resource.references ?? {})) {
    const values = batch.references.get(column) ?? [];
    const distinct = new Set<unknown>();
    for (const [index, value] of values.entries()) {
      if (index % 1000 === 0) await turn();
      if (value !== null && value !== undefined) distinct.add(value);
    }
    if (distinct.size === 0) continue;
    const found = await session.run<{ id: string | number }>(existingSql(em, resource, column),
      [JSON.stringify([...distinct])]);
    const existing = new Set(found.map(({ id }) => String(id)));
    for (const [index, value] of values.entries()) {
      if (index % 1000 === 0) await turn();
      if (value !== null && value !== undefined && !existing.has(String(value))) {
        problems.add({ record: index + 1, ...problem });
      }
    }
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
 * The new rows' ids in ascending order, read from the statements' texts (`NewIds`) a digit at a time: no string per
 * id. The statements answer them in ascending order already, and checking costs less than sorting. The event loop
 * turns every few milliseconds.
 */
async function ascendingIds(answers: readonly NewIds[]): Promise<number[]> {
  const turn = turns();
  const ids: number[] = [];
  let sorted = true;
  const comma = 0x2c;
  const minus = 0x2d;
  const zero = 0x30;
  for (const { ids: text } of answers) {
    if (text === null) continue;
    let value = 0;
    let sign = 1;
    for (let at = 0; at <= text.length; at += 1) {
      const code = at < text.length ? text.charCodeAt(at) : comma;
      if (code === minus) sign = -1;
      else if (code !== comma) value = value * 10 + code - zero;
      else {
        const id = sign * value;
        if (ids.length > 0 && id <= ids.at(-1)!) sorted = false;
        ids.push(id);
        [value, sign] = [0, 1];
        if (ids.length % 1000 === 0) await turn();
      }
    }
  }
  return sorted ? ids : ids.sort((a, b) => a - b);
}

/**
 * Creates every record of `batch` with its `created` entry, in the session's transaction, ids ascending in input
 * order: their ids, in input order (each new record's version is 0). Or, when a record had a problem (`problems`,
 * and the references checked here), the 400 naming each, and nothing written. The records are dropped as their rows
 * are sent.
 */
export async function writeBatch(session: BatchSession, em: EntityManager, resource: AnyResource, batch: BatchRows,
  problems: RecordProblems, changedBy: string | null): Promise<number[]> {
  await checkReferences(session, em, resource, batch, problems);
  // Past this, every record passed: its rows are all of them, in input order.
  problems.refuseAny();
  const ids = await ascendingIds(await session.insertRows(batch));
  await writeRelated(session, em, resource, batch.related, ids);
  for (const part of chunks(ids)) {
    await session.run(entriesSql(em, resource), [resource.name, changedBy, part[0], part.at(-1), JSON.stringify(part)]);
  }
  return ids;
}

/** The batch in one transaction: on PostgreSQL through COPY (write/batch-copy.ts), else multi-row statements. */
export async function createBatch(em: EntityManager, resource: AnyResource, batch: BatchRows,
  problems: RecordProblems, changedBy: string | null): Promise<number[]> {
  const pool = await em.getConnection('write').getNativeClient();
  if (pool instanceof pg.Pool) {
    return copySession(pool, em, resource, batch.length, (session) => writeBatch(session, em, resource, batch, problems,
      changedBy));
  }
  return em.transactional((tx) => writeBatch(statementSession(tx, resource), tx, resource, batch, problems,
    changedBy));
}
