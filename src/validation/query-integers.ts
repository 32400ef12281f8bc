// Checks integer query parameters before anything else reads them: the text of a whole number, and in range as a
// number.
import type { RequestHandler } from 'express';
import { ValidationFailed, type FieldProblem } from '../errors/app-errors.ts';
import { boundsOf } from '../contract/bounds.ts';
import type { Schema } from '../contract/document.ts';
import { operationOf } from '../contract/resolution.ts';

// Only the canonical decimal spelling is an integer: a number conversion would turn `Infinity`, `1e309`, `0x10`,
// ` 5` or `1.0` into numbers that pass or dodge the schema's bounds (`?limit=1e309` became an unbounded list).
const wholeNumber = /^-?(0|[1-9]\d*)$/;

// The widest range a parameter's format allows; int64 is bounded by what a JSON number holds exactly
// (docs/behaviour.md#ids).
const formatRange: Record<string, [number, number]> = { int32: [-(2 ** 31), 2 ** 31 - 1] };
const exactRange: [number, number] = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/**
 * A text of 309 digits is a whole number, but as a JavaScript number it is Infinity, which the request validator
 * let through to the SQL; any number beyond ±(2^53−1) is no longer the one the client sent. So the converted value
 * is checked against the schema's bounds, its format's, and the exact range.
 */
function inRange(value: number, schema: Schema): boolean {
  const [low, high] = formatRange[schema.format as string] ?? exactRange;
  return Number.isSafeInteger(value) && value >= Math.max(low, schema.minimum ?? low)
    && value <= Math.min(high, schema.maximum ?? high);
}

export const queryIntegers: RequestHandler = (req, _res, next) => {
  const problems: FieldProblem[] = [];
  // Read once: express 5's `req.query` parses the query string again on every read (until the validator replaces it).
  const query = req.query;
  for (const { name, schema } of operationOf(req)?.integerQuery ?? []) {
    const value = query[name];
    if (value === undefined) continue;
    // Repeated parameters are the validator's to refuse; each of their texts must still be a whole number.
    const texts = Array.isArray(value) ? value : [value];
    const keys = schema['x-message-keys'] ?? {};
    if (texts.some((text) => typeof text !== 'string' || !wholeNumber.test(text))) {
      // The schema's message for a wrong type, else for its bounds (`limit`: "between 1 and 1000", as for 1001).
      problems.push({ field: name, key: keys.type ?? keys.maximum ?? 'error.field.type', params: boundsOf(schema) });
    } else if (texts.some((text) => !inRange(Number(text), schema))) {
      problems.push({ field: name, key: keys.maximum ?? keys.type ?? 'error.field.range', params: boundsOf(schema) });
    }
  }
  if (problems.length) throw new ValidationFailed(problems);
  next();
};
