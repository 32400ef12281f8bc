// A CSV body (RFC 4180, `text/csv`) read row by row as its text arrives, each data row keyed by the header row's column
// names, by csv-parse's stream.
import { parse, type CsvError, type Parser } from 'csv-parse';
import { BadRequest } from '../errors/app-errors.ts';

/** A data row: each column's text as it was sent (unquoted), keyed by its header. */
export type CsvRow = Record<string, string>;

const malformedAt = (line: number) => new BadRequest('error.csv.malformed', { line });

/**
 * The rows of the text: a byte order mark is dropped, LF or CRLF ends a line, a quoted field may hold commas, quotes
 * and line ends. A row of another number of fields than the header, or a quote never closed, is a 400 naming its line
 * (for a quote: the line its row starts on, where the client looks for it); so is a header naming a column twice.
 * Each row goes to `row` once it is whole; only the text of the row under way is held.
 */
export class CsvRows {
  private lastRowEnd = 0;
  private failure: unknown;
  private readonly parser: Parser;
  private readonly ended: Promise<void>;

  constructor(row: (value: CsvRow, position: number) => void) {
    let count = 0;
    this.parser = parse({
      bom: true,
      skip_empty_lines: true,
      columns: (header: string[]) => {
        if (new Set(header).size !== header.length) throw malformedAt(1);
        // The header is no record (`on_record` is not told of it): a quote left open in the first data row is named
        // by the line after the header's.
        this.lastRowEnd = this.parser.info.lines;
        return header;
      },
      on_record: (record: CsvRow, context: { lines: number }) => {
        this.lastRowEnd = context.lines;
        return record;
      },
    });
    this.parser.on('data', (record: CsvRow) => { row(record, count += 1); });
    this.ended = new Promise((resolve, reject) => {
      this.parser.once('end', resolve);
      this.parser.once('error', (error) => {
        this.failure = error;
        reject(error as Error);
      });
    });
    // Its failure is told by `push` or `finish`, whichever comes first.
    this.ended.catch(() => undefined);
  }

  /** The next piece of the text; throws the 400 once the parser has refused what came before. */
  push(piece: string): void {
    if (this.failure !== undefined) throw this.refusal(this.failure);
    this.parser.write(piece);
  }

  /** After the last piece: resolves once every row is out, or rejects with the 400. */
  async finish(): Promise<void> {
    if (this.failure === undefined) this.parser.end();
    try {
      await this.ended;
    } catch (error) {
      throw this.refusal(error);
    }
  }

  /** The text will not be read to its end. */
  stop(): void {
    this.parser.destroy();
  }

  private refusal(error: unknown): BadRequest {
    if (error instanceof BadRequest) return error;
    const { code, lines } = error as CsvError & { lines?: number };
    return malformedAt(code === 'CSV_QUOTE_NOT_CLOSED' ? this.lastRowEnd + 1 : lines ?? this.lastRowEnd + 1);
  }
}
