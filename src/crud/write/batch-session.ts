// What a batch create's writes need of the transaction they run in, on PostgreSQL (COPY) or PGlite (statements).

/** A new row's id and version as a statement answers them (a `bigint` id comes as text from `pg`). */
export interface NewRow { id: string | number; version: number }

/** The batch's transaction: its statements (`?` placeholders), and how the records' own rows get in. */
export interface BatchSession {
  run<T>(sql: string, params: unknown[]): Promise<T[]>;
  /**
   * Inserts `rows` (objects keyed by `columns`) in their order, taking each out of `rows` as it is sent (`taken`);
   * answers their ids and versions.
   */
  insertRows(columns: readonly string[], rows: Array<Record<string, unknown> | undefined>): Promise<NewRow[]>;
}

/** Rows per statement: a statement's text and its JSON stay a few MB, whatever the batch's size. */
const rowsPerStatement = 5_000;

export function chunks<T>(items: readonly T[], size = rowsPerStatement): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}

/** `rows` in parts of `size`, each row taken out of `rows` as its part is handed over: sent rows are not held on. */
export function* taken<T>(rows: Array<T | undefined>, size = rowsPerStatement): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) {
    const part = rows.slice(start, start + size) as T[];
    rows.fill(undefined, start, start + size);
    yield part;
  }
}
