// Checks integer query parameters as the text of a whole number before anything converts them to a number.
import type { RequestHandler } from 'express';
import { ValidationFailed, type FieldProblem } from '../errors/app-errors.ts';
import { boundsOf } from '../contract/bounds.ts';
import { operationFor, parametersOf } from '../contract/operations.ts';
import { resolve } from '../contract/references.ts';

// Only the canonical decimal spelling is an integer: a number conversion would turn `Infinity`, `1e309`, `0x10`,
// ` 5` or `1.0` into numbers that pass or dodge the schema's bounds (`?limit=1e309` became an unbounded list).
const wholeNumber = /^-?(0|[1-9]\d*)$/;

export const queryIntegers: RequestHandler = (req, _res, next) => {
  const problems: FieldProblem[] = [];
  for (const parameter of parametersOf(operationFor(req.method, req.path))) {
    const schema = parameter.schema && resolve(parameter.schema);
    const value = req.query[parameter.name];
    if (parameter.in !== 'query' || schema?.type !== 'integer' || value === undefined) continue;
    // Repeated parameters are the validator's to refuse; each of their texts must still be a whole number.
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((text) => typeof text !== 'string' || !wholeNumber.test(text))) {
      // The schema's message for a wrong type, else for its bounds (`limit`: "between 1 and 1000", as for 1001).
      const keys = schema['x-message-keys'] ?? {};
      problems.push({ field: parameter.name, key: keys.type ?? keys.maximum ?? 'error.field.type', params: boundsOf(schema) });
    }
  }
  if (problems.length) throw new ValidationFailed(problems);
  next();
};
