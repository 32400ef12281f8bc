// Writes lists as RFC 4180 CSV (docs/api.md#csv): a header row of the view's columns, CRLF, quoting only where needed,
// a text that would open as a formula guarded by a `'` (csv-columns.ts, `formulaStart`).
import type { Representation } from './representation.ts';
import { jsonRepresentation } from './representation.ts';
import { formulaStart, valueAt, type CsvColumn } from './csv-columns.ts';

/** A field holding a comma, a quote or a line end is quoted (§2.6), its quotes doubled (§2.7). */
const needsQuotes = /[",\r\n]/;

/**
 * One cell. Written here, not by csv-stringify: a long export writes millions of cells, and a library call per row
 * (its options read, its record cast and joined) took four times as long as the cells themselves.
 */
function cell(value: unknown, text: boolean): string {
  if (value === null || value === undefined) return '';
  // A number or a boolean holds no comma, quote or line end, and is never a text to guard.
  if (typeof value !== 'string' && typeof value !== 'object') return String(value as number | boolean | bigint);
  let field = typeof value === 'string' ? value : JSON.stringify(value);
  if (text && typeof value === 'string' && formulaStart.test(field)) field = `'${field}`;
  return needsQuotes.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

/** A record's line for `columns`, ended by CRLF. */
function line(record: unknown, columns: readonly CsvColumn[]): string {
  let text = '';
  for (let index = 0; index < columns.length; index++) {
    const { path, text: isText } = columns[index]!;
    if (index > 0) text += ',';
    text += cell(valueAt(record, path), isText);
  }
  return `${text}\r\n`;
}

/** A list's CSV for its columns; a document (an error, a record) is never CSV: those stay JSON. */
export function csvList(columns: readonly CsvColumn[]): Representation {
  return {
    ...csvRepresentation,
    listOpen: () => `${columns.map(({ name }) => cell(name, false)).join(',')}\r\n`,
    listItem: (_root, body) => line(body, columns),
  };
}

/** What negotiation picks: the list's own writer is made once its columns are known (`forList`). */
export const csvRepresentation: Representation = {
  mediaType: 'text/csv',
  extension: 'csv',
  document: jsonRepresentation.document,
  listOpen: () => '',
  listItem: () => '',
  listClose: () => '',
  forList: csvList,
};
