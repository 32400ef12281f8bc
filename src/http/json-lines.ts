// A JSON lines body (`application/x-ndjson`, one JSON object per line) read line by line as its text arrives.
import { BadRequest, BatchRejected } from '../errors/app-errors.ts';
import { parseUnrounded } from './unrounded-numbers.ts';
import { refuseDeepJson } from './body-depth.ts';
import { malformedBody } from '../errors/refusals.ts';

/**
 * One record per line, LF or CRLF, so that record n is line n (the position a batch's 400 names). Only a last empty
 * line (the text's final newline) is no record; any other line that is not a JSON object is a 400 naming that line.
 * Each line is parsed once it is whole and handed to `record`; only the line under way is held.
 */
export class JsonLineRecords {
  private carried = '';
  private lines = 0;

  private readonly record: (value: unknown, position: number) => void;

  constructor(record: (value: unknown, position: number) => void) {
    this.record = record;
  }

  push(piece: string): void {
    let start = 0;
    for (let end = piece.indexOf('\n'); end >= 0; end = piece.indexOf('\n', start)) {
      const line = this.carried + piece.slice(start, end);
      this.carried = '';
      this.take(line);
      start = end + 1;
    }
    this.carried += piece.slice(start);
  }

  /** After the last piece: a last line without its newline is a record too, unless it is blank. */
  finish(): undefined {
    if (this.carried.trim() !== '') this.take(this.carried);
    this.carried = '';
    return undefined;
  }

  private take(line: string): void {
    this.lines += 1;
    const trimmed = line.trim();
    let value: unknown;
    try {
      if (!trimmed.startsWith('{')) throw malformedBody();
      refuseDeepJson(trimmed);
      value = parseUnrounded(trimmed);
    } catch (error) {
      const { key, params } = error instanceof BadRequest ? error : malformedBody();
      throw new BatchRejected([{ record: this.lines, field: 'body', key, params }]);
    }
    this.record(value, this.lines);
  }
}
