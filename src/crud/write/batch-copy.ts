// A batch create's transaction on PostgreSQL, on one connection of the pool: the records' rows COPYed (pg-copy-streams)
// into a temporary table, then one INSERT … SELECT into the table; its other statements on the same connection.
import pg from 'pg';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import copyStreams from 'pg-copy-streams';
import type { EntityManager } from '@mikro-orm/core';
import type { AnyResource } from '../resource-descriptor.ts';
import { unnamedStatement } from '../../db/named-statements.ts';
import { lengthensBound } from '../../db/bounded-waits.ts';
import { copyFromSql, copyTableSql, insertCopiedSql } from './batch-statements.ts';
import { rowsPerStatement, type BatchSession, type NewIds } from './batch-session.ts';
import type { BatchRows } from './batch-rows.ts';
import { turns } from './batch-records.ts';

/** A field in COPY's text format (PostgreSQL, COPY, "Text Format"): `\N` is null; `\`, tab, LF and CR escaped. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = value instanceof Date ? value.toISOString()
    : typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/**
 * The rows as COPY's lines, a hundred to a chunk (under a millisecond's work), made as COPY asks for them; each starts
 * with its position. The event loop turns every millisecond between chunks: on loopback the kernel takes every chunk
 * at once, so COPY would ask for the next at once and the whole batch would be made in one turn (seconds), holding
 * every other request.
 */
async function* copyText(batch: BatchRows): AsyncGenerator<string> {
  const { columns } = batch;
  const turn = turns();
  let position = 0;
  for (const part of batch.parts(100)) {
    yield part.map((row) => `${[position++, ...columns.map((column) => copyField(row[column]))].join('\t')}\n`)
      .join('');
    await turn();
  }
}

/**
 * Runs `work` for a batch of `records` in a transaction of its own connection, committed when it succeeds, rolled back
 * when it throws: a failure of the database is MikroORM's exception then, as the error handler maps it (a unique value
 * taken: 409). Its statements' time grows with the batch: each `rowsPerStatement` records add one statement bound
 * (DB_STATEMENT_TIMEOUT_MS) to theirs, as PGlite's path has a statement for each.
 */
export async function copySession<T>(pool: pg.Pool, em: EntityManager, resource: AnyResource, records: number,
  work: (session: BatchSession) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  let restoreBound = () => {};
  const query = (sql: string, params: unknown[] = []) => client.query(unnamedStatement(sql).text, params);
  try {
    await query('begin');
    const bound = async () => {
      if (lengthensBound(client)) restoreBound = await client.lengthenBound(1 + records / rowsPerStatement);
    };
    await bound();
    const result = await work({
      run: async <R>(sql: string, params: unknown[]) => (await query(sql, params)).rows as R[],
      async insertRows(batch) {
        const { columns } = batch;
        await query(copyTableSql(em, resource, columns));
        // The COPY lasts as long as this process takes to make its rows (a chunk a turn), which a loaded machine
        // stretches: its time is the service's, not the database's, and into the session's own temporary table it
        // waits on no lock. Unbounded on the server; the INSERT after it has the batch's bound again.
        if (lengthensBound(client)) await query('set local statement_timeout = 0');
        // One chunk of text made at a time, when COPY takes the one before: never a run of them in one turn.
        await pipeline(Readable.from(copyText(batch), { highWaterMark: 1 }),
          client.query(copyStreams.from(copyFromSql(columns))));
        await bound();
        return (await query(insertCopiedSql(em, resource, columns))).rows as NewIds[];
      },
    });
    await query('commit');
    return result;
  } catch (error) {
    await query('rollback').catch((failure: unknown) => { broken = failure as Error; });
    throw error instanceof pg.DatabaseError ? em.getDriver().convertException(error) : error;
  } finally {
    restoreBound();
    // A connection whose rollback failed is not handed out again.
    client.release(broken);
  }
}
