// Checks integer query parameters as the text of a whole number before anything converts them to a number.
import type { RequestHandler } from 'express';
import { ValidationFailed, type FieldProblem } from '../errors/app-errors.ts';
import { openApiDocument, resolve, type Schema } from './openapi-document.ts';

type Parameter = { name: string; in: string; schema?: Schema };
type Operations = Record<string, Record<string, { parameters?: (Parameter | { $ref: string })[] }>>;

// Only the canonical decimal spelling is an integer: a number conversion would turn `Infinity`, `1e309`, `0x10`,
// ` 5` or `1.0` into numbers that pass or dodge the schema's bounds (`?limit=1e309` became an unbounded list).
const wholeNumber = /^-?(0|[1-9]\d*)$/;

/** `GET /sighting` → the schemas of its integer query parameters by name. */
const integerParameters = new Map<string, Map<string, Schema>>();
for (const [path, operations] of Object.entries(openApiDocument.paths as Operations)) {
  for (const [method, operation] of Object.entries(operations)) {
    const integers = new Map<string, Schema>();
    for (const parameter of (operation.parameters ?? []).map((p) => resolve<Parameter>(p))) {
      const schema = parameter.schema && resolve(parameter.schema);
      if (parameter.in === 'query' && schema?.type === 'integer') integers.set(parameter.name, schema);
    }
    if (integers.size) integerParameters.set(`${method.toUpperCase()} ${path}`, integers);
  }
}

export const queryIntegers: RequestHandler = (req, _res, next) => {
  const integers = integerParameters.get(`${req.method} ${req.path.replace(/(.)\/$/, '$1')}`);
  const problems: FieldProblem[] = [];
  for (const [name, schema] of integers ?? []) {
    const value = req.query[name];
    if (value === undefined) continue;
    // Repeated parameters are the validator's to refuse; each of their texts must still be a whole number.
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((text) => typeof text !== 'string' || !wholeNumber.test(text))) {
      // The schema's message for a wrong type, else for its bounds (`limit`: "between 1 and 1000", as for 1001).
      const keys = schema['x-message-keys'] ?? {};
      problems.push({ field: name, key: keys.type ?? keys.maximum ?? 'error.field.type', params: { min: schema.minimum, max: schema.maximum } });
    }
  }
  if (problems.length) throw new ValidationFailed(problems);
  next();
};
