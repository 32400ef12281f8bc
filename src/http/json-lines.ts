// A JSON lines body (`application/x-ndjson`, one JSON object per line) as the array of its records.
import { BadRequest, BatchRejected } from '../errors/app-errors.ts';
import { parseUnrounded } from './unrounded-numbers.ts';
import { refuseDeepJson } from './body-depth.ts';
import { malformedBody } from '../errors/refusals.ts';

/**
 * One record per line, LF or CRLF, so that record n is line n (the position a batch's 400 names). Only a last empty
 * line (the text's final newline) is no record; any other line that is not a JSON object is a 400 naming that line.
 */
export function jsonLines(text: string): unknown[] {
  const lines = text.split('\n');
  if (lines.at(-1)?.trim() === '') lines.pop();
  return lines.map((line, index) => {
    const trimmed = line.trim();
    try {
      if (!trimmed.startsWith('{')) throw malformedBody();
      refuseDeepJson(trimmed);
      return parseUnrounded(trimmed);
    } catch (error) {
      const { key, params } = error instanceof BadRequest ? error : malformedBody();
      throw new BatchRejected([{ record: index + 1, field: 'body', key, params }]);
    }
  });
}
