// Writes lists as RFC 4180 CSV (docs/api.md#csv): a header row of the view's columns, CRLF, quoting only where needed.
import { stringify, type Options } from 'csv-stringify/sync';
import type { Representation } from './representation.ts';
import { jsonRepresentation } from './representation.ts';
import { csvCells, type CsvColumn } from './csv-columns.ts';

const options: Options = {
  record_delimiter: 'windows',
  // csv-stringify quotes a delimiter and a quote by itself; a line break inside a field must be quoted too (§2.6).
  quoted_match: /[\r\n]/,
  cast: { boolean: String },
};

const row = (cells: unknown[]) => stringify([cells], options);

/** A list's CSV for its columns; a document (an error, a record) is never CSV: those stay JSON. */
export function csvList(columns: readonly CsvColumn[]): Representation {
  return {
    ...csvRepresentation,
    listOpen: () => row(columns.map(({ name }) => name)),
    listItem: (_root, body) => row(csvCells(body, columns)),
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
