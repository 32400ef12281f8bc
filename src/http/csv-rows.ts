// A CSV body (RFC 4180, `text/csv`) as its data rows, each keyed by the header row's column names, read by csv-parse.
import { parse, type CsvError } from 'csv-parse/sync';
import { BadRequest } from '../errors/app-errors.ts';

/** A data row: each column's text as it was sent (unquoted), keyed by its header. */
export type CsvRow = Record<string, string>;

const malformedAt = (line: number) => new BadRequest('error.csv.malformed', { line });

/**
 * The rows of `text`: a byte order mark is dropped, LF or CRLF ends a line, a quoted field may hold commas, quotes and
 * line ends. A row of another number of fields than the header, or a quote never closed, is a 400 naming its line (for
 * a quote: the line its row starts on, where the client looks for it); so is a header naming a column twice.
 */
export function csvRows(text: string): CsvRow[] {
  let lastRowEnd = 0;
  try {
    return parse(text, {
      bom: true,
      skip_empty_lines: true,
      columns: (header: string[]) => {
        if (new Set(header).size !== header.length) throw malformedAt(1);
        return header;
      },
      on_record: (record: CsvRow, context: { lines: number }) => {
        lastRowEnd = context.lines;
        return record;
      },
    }) as CsvRow[];
  } catch (error) {
    if (error instanceof BadRequest) throw error;
    const { code, lines } = error as CsvError & { lines?: number };
    throw malformedAt(code === 'CSV_QUOTE_NOT_CLOSED' ? lastRowEnd + 1 : lines ?? lastRowEnd + 1);
  }
}
