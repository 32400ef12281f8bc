// Turns express-openapi-validator's errors into the contract's field problems, keyed by the schema's x-message-keys.
import type { FieldProblem } from '../errors/app-errors.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { boundsOf } from '../contract/bounds.ts';
import type { Operation, Schema } from '../contract/document.ts';
import { parametersOf } from '../contract/parameters.ts';
import { referencedNode } from '../contract/references.ts';
import { schemaAt } from '../contract/schemas.ts';

export interface ValidatorErrorItem {
  /** Where: `/body/vessel/vesselId`, `/query/limit`, `/headers/idempotency-key`. */
  path: string;
  /** `<ajv keyword>.openapi.validation`; absent for the validator's own checks of query parameters. */
  errorCode?: string;
}

/** The message key a keyword falls back to when the schema names none. */
const defaultKeys: Record<string, MessageKey> = {
  unknownParameter: 'error.parameter.unknown',
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
    const keyword = keywordOf(item, operation, location, segments);
    const content = operation?.requestBody?.content;
    const body = location === 'body' ? (content?.['application/json']
      ?? content?.['application/merge-patch+json'])?.schema : undefined;
    const schema = body ? schemaAt(body, segments) : parameterSchema(operation, location, segments[0]);
    // A missing property's own schema may name no key for `required`; the object that requires it may.
    const owner = keyword === 'required' && body ? schemaAt(body, segments.slice(0, -1)) : undefined;
    const specificKey = schema?.['x-message-keys']?.[keyword] ?? owner?.['x-message-keys']?.[keyword]
      ?? serverGenerated(body, keyword, segments);
    const field = segments.join('.') || location;
    const known = byField.get(field);
    // Several rules can fail on one field; the one the schema names a message for says it best.
    if (!known || (!known.specific && specificKey)) {
      byField.set(field, { field, key: specificKey ?? defaultKeys[keyword] ?? 'error.field.invalid',
        params: boundsOf(schema), specific: Boolean(specificKey) });
    }
  }
  return [...byField.values()].map(({ specific: _, ...problem }) => problem);
}

/**
 * The ajv keyword that failed. The validator's own query checks carry none: one about a parameter the operation does
 * not declare is an unknown parameter (a name may hold `/`); any other refused the value before ajv saw it.
 */
function keywordOf(item: ValidatorErrorItem, operation: Operation | undefined, location: string,
  segments: string[]): string {
  if (item.errorCode) return item.errorCode.replace(/\.openapi\.validation$/, '');
  const name = segments.join('/');
  const declared = parametersOf(operation).find((p) => p.in === 'query' && p.name === name);
  if (location !== 'query') return 'invalid';
  return declared ? precheckedKeyword(declared.schema && referencedNode(declared.schema)) : 'unknownParameter';
}

/**
 * The rule of the parameter's schema that a value the validator refuses before ajv (an empty value, a reserved
 * character left unencoded) breaks: every query parameter's schema refuses both (test/api/contract-agreement.test.ts),
 * so the answer names the message the contract gives that rule, as it would had ajv checked the value.
 */
function precheckedKeyword(schema: Schema | undefined): string {
  const keys = schema?.['x-message-keys'] ?? {};
  const named = ['minLength', 'pattern', 'type'].find((keyword) => keyword in keys);
  if (named) return named;
  if (schema?.type !== 'string') return 'type';
  return schema.minLength ? 'minLength' : schema.pattern ? 'pattern' : 'invalid';
}

/** A create body's server-generated field (`x-server-generated` on its object) is not merely unknown. */
function serverGenerated(body: Schema | undefined, keyword: string, segments: string[]): MessageKey | undefined {
  if (keyword !== 'additionalProperties' || !body) return undefined;
  const names = schemaAt(body, segments.slice(0, -1))?.['x-server-generated'];
  return Array.isArray(names) && names.includes(segments.at(-1)) ? 'error.field.serverGenerated' : undefined;
}

function parameterSchema(operation: Operation | undefined, location: string,
  name: string | undefined): Schema | undefined {
  const where = ({ query: 'query', params: 'path', headers: 'header' } as Record<string, string>)[location];
  const parameter = parametersOf(operation).find((p) => p.in === where && p.name.toLowerCase() === name?.toLowerCase());
  return parameter?.schema && referencedNode(parameter.schema);
}
