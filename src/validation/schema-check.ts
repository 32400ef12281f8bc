// Checks a value the service builds from a request (a merge patch applied to a record) against a schema of
// openapi.yaml.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../contract/document.ts';
import { pointer } from '../contract/references.ts';
import { ValidationFailed, type FieldProblem } from '../errors/app-errors.ts';
import { customFormats } from './formats.ts';
import { fieldProblems } from './field-problems.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
/**
 * openapi.yaml as ajv reads it (`openapi#/components/…`), checking as the request validator does: every error, no
 * coercion, the contract's formats.
 */
export const contractSchemas = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });

addFormats(contractSchemas);
contractSchemas.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
contractSchemas.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n)
  && Math.abs(n) < 2 ** 31 });
for (const [name, format] of Object.entries(customFormats)) contractSchemas.addFormat(name, format);
contractSchemas.addSchema(openApiDocument, 'openapi');

const compiled = new Map<string, ValidateFunction>();

/** Where an ajv error points, as the request validator names it (`/body/vessel/vesselId`). */
function pathOf(error: ErrorObject): string {
  const child = (error.params as { missingProperty?: string; additionalProperty?: string });
  const last = child.missingProperty ?? child.additionalProperty;
  return `/body${error.instancePath}${last === undefined ? '' : `/${last}`}`;
}

/** The field problems `body` would have had as the JSON request body of the operation at `method` `template`. */
export function problemsAsRequestBody(template: string, method: string, body: unknown): FieldProblem[] {
  const schema = pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema');
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, validate = contractSchemas.compile({ $ref: `openapi#${schema}` }));
  if (validate(body)) return [];
  const items = (validate.errors ?? []).map((error) => ({ path: pathOf(error),
    errorCode: `${error.keyword}.openapi.validation` }));
  return fieldProblems(items, openApiDocument.paths[template]![method]);
}

/** Throws the 400 that `body` would have had as the JSON request body of the operation at `method` `template`. */
export function checkAsRequestBody(template: string, method: string, body: unknown): void {
  const problems = problemsAsRequestBody(template, method, body);
  if (problems.length > 0) throw new ValidationFailed(problems);
}
