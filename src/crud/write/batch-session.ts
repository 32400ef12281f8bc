// What a batch create's writes need of the transaction they run in, on PostgreSQL (COPY) or PGlite (statements).
import type { BatchRows } from './batch-rows.ts';

/** A new row's id and version as a statement answers them (a `bigint` id comes as text from `pg`). */
export interface NewRow { id: string | number; version: number }

/** The batch's transaction: its statements (`?` placeholders), and how the records' own rows get in. */
export interface BatchSession {
  run<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** Inserts the batch's rows (`parts`, keyed by its `columns`) in their order; answers their ids and versions. */
  insertRows(batch: BatchRows): Promise<NewRow[]>;
}

/** Rows per statement: a statement's text and its JSON stay a few MB, whatever the batch's size. */
export const rowsPerStatement = 5_000;

export function chunks<T>(items: readonly T[], size = rowsPerStatement): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}

