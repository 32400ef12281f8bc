// Writes lists as RFC 4180 CSV (docs/api.md#csv): a header row of the view's columns, CRLF, quoting only where needed,
// a text that would open as a formula guarded by a `'` (csv-columns.ts, `formulaStart`).
import { stringify, type Options } from 'csv-stringify/sync';
import type { Representation } from './representation.ts';
import { jsonRepresentation } from './representation.ts';
import { formulaStart, valueAt, type CsvColumn } from './csv-columns.ts';

/** csv-stringify's options for the service's CSV: the reference the rows' own writer is tested against. */
export const csvOptions: Options = {
  record_delimiter: 'windows',
  // csv-stringify quotes a delimiter and a quote by itself; a line break inside a field must be quoted too (§2.6).
  quoted_match: /[\r\n]/,
  cast: { boolean: String },
};

/** A field holding a comma, a quote or a line end is quoted (§2.6), its quotes doubled (§2.7). */
const needsQuotes = /[",\r\n]/;

/**
 * One cell of a row. Rows are written here, not by csv-stringify: a long export writes millions of cells, and
 * csv-stringify took four times as long over a batch of rows as these lines (test/http/csv-writer.test.ts holds them
 * to its text for any value, as the XML writer is held to xml2js's).
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
export function csvLine(record: unknown, columns: readonly CsvColumn[]): string {
  let text = '';
  for (let index = 0; index < columns.length; index++) {
    const { path, text: isText } = columns[index]!;
    if (index > 0) text += ',';
    text += cell(valueAt(record, path), isText);
  }
  return `${text}\r\n`;
}

/** The header row: the columns' names, ended by CRLF. */
export const csvHeader = (columns: readonly CsvColumn[]): string =>
  stringify([columns.map(({ name }) => name)], csvOptions);

/** A list's CSV for its columns; a document (an error, a record) is never CSV: those stay JSON. */
export function csvList(columns: readonly CsvColumn[]): Representation {
  return {
    ...csvRepresentation,
    listOpen: () => csvHeader(columns),
    listItem: (_root, body) => csvLine(body, columns),
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
