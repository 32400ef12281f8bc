// What a batch create's writes need of the transaction they run in, on PostgreSQL (COPY) or PGlite (statements).
import type { BatchRows } from './batch-rows.ts';

/**
 * The new rows' ids as a statement answers them: one text, the ids in decimal separated by commas (null for none).
 * Not a row per id: a row is an object and a string in the service's heap (~70 bytes, 67 MB for a batch of 950,000),
 * the text ~7 bytes an id.
 */
export interface NewIds { ids: string | null }

/** The batch's transaction: its statements (`?` placeholders), and how the records' own rows get in. */
export interface BatchSession {
  run<T>(sql: string, params: unknown[]): Promise<T[]>;
  /**
   * Inserts the batch's rows (`parts`, keyed by its `columns`) in their order, each at version 0; answers their ids,
   * a text for each statement that inserted some.
   */
  insertRows(batch: BatchRows): Promise<NewIds[]>;
}

/** Rows per statement: a statement's text and its JSON stay a few MB, whatever the batch's size. */
export const rowsPerStatement = 5_000;

export function chunks<T>(items: readonly T[], size = rowsPerStatement): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}

