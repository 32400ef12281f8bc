// Turns express-openapi-validator's errors into the contract's field problems, keyed by the schema's x-message-keys.
import type { FieldProblem } from '../errors/app-errors.ts';
import { resolve, schemaAt, type Schema } from './openapi-document.ts';

export interface ValidatorErrorItem {
  path: string;
  message: string;
  errorCode?: string;
}

interface Operation {
  parameters?: ({ name: string; in: string; schema?: Schema } | { $ref: string })[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** The message key a keyword falls back to when the schema names none. */
const defaultKeys: Record<string, string> = {
  required: 'error.field.required',
  additionalProperties: 'error.field.unknown',
  type: 'error.field.type',
  minLength: 'error.field.tooShort',
  maxLength: 'error.field.tooLong',
  minimum: 'error.field.tooSmall',
  maximum: 'error.field.tooLarge',
};

export function fieldProblems(items: ValidatorErrorItem[], operation: Operation | undefined): FieldProblem[] {
  const byField = new Map<string, FieldProblem & { specific: boolean }>();
  for (const item of items) {
    const [, location = '', ...segments] = item.path.split('/');
    const keyword = item.errorCode?.replace(/\.openapi\.validation$/, '') ?? (/^Unknown query parameter/.test(item.message) ? 'unknownParameter' : 'invalid');
    const schema = location === 'body' ? schemaAt(bodySchema(operation), segments) : parameterSchema(operation, location, segments[0]);
    // A missing property's own schema may name no key for `required`; the object that requires it may.
    const owner = keyword === 'required' && location === 'body' ? schemaAt(bodySchema(operation), segments.slice(0, -1)) : undefined;
    const specificKey = keyIn(schema, keyword) ?? owner?.['x-message-keys']?.[keyword] ?? serverGenerated(operation, location, keyword, segments);
    const key = specificKey ?? (keyword === 'unknownParameter' ? 'error.parameter.unknown' : defaultKeys[keyword] ?? 'error.field.invalid');
    const field = segments.join('.') || location;
    const known = byField.get(field);
    // Several rules can fail on one field; the one the schema names a message for says it best.
    if (!known || (!known.specific && specificKey)) {
      byField.set(field, { field, key, params: limits(schema), specific: Boolean(specificKey) });
    }
  }
  return [...byField.values()].map(({ specific: _, ...problem }) => problem);
}

/** The schema's key for the keyword, or, for a `oneOf`, the first alternative's that names one. */
function keyIn(schema: Schema | undefined, keyword: string): string | undefined {
  return schema?.['x-message-keys']?.[keyword] ?? schema?.oneOf?.map((s) => resolve(s)['x-message-keys']?.[keyword]).find(Boolean);
}

/** A create body's server-generated field (`x-server-generated` on its object) is not merely unknown. */
function serverGenerated(operation: Operation | undefined, location: string, keyword: string, segments: string[]): string | undefined {
  if (keyword !== 'additionalProperties' || location !== 'body') return undefined;
  const names = schemaAt(bodySchema(operation), segments.slice(0, -1))?.['x-server-generated'];
  return Array.isArray(names) && names.includes(segments.at(-1)) ? 'error.field.serverGenerated' : undefined;
}

function bodySchema(operation: Operation | undefined): Schema | undefined {
  const content = operation?.requestBody?.content;
  return content?.['application/json']?.schema;
}

function parameterSchema(operation: Operation | undefined, location: string, name: string | undefined): Schema | undefined {
  const where = ({ query: 'query', params: 'path', headers: 'header' } as Record<string, string>)[location];
  const parameter = operation?.parameters?.map((p) => resolve<{ name: string; in: string; schema?: Schema }>(p))
    .find((p) => p.in === where && p.name.toLowerCase() === name?.toLowerCase());
  return parameter?.schema && resolve(parameter.schema);
}

/** `{min}` and `{max}` in a message are the constraint's values. */
function limits(schema: Schema | undefined): Record<string, unknown> {
  if (!schema) return {};
  return { min: schema.minLength ?? schema.minimum, max: schema.maxLength ?? schema.maximum };
}
