// Checks a response against openapi.yaml: documented status, media type, body schema and headers.
import { answeringOperation, pathTemplate, type AskedFor } from './contract-paths.ts';
import { dereference, pointer } from '../../src/contract/references.ts';
import { contractSchemas as ajv } from '../../src/validation/schema-check.ts';

type DocumentedResponse = { content?: Record<string, unknown>; headers?: Record<string, unknown> };

export interface ObservedResponse {
  method: string;
  /** The path below the base path, e.g. `/sighting/-1`. */
  path: string;
  status: number;
  headers: Headers;
  /**
   * Parsed body: JSON value, for JSON lines the array of its lines' values, for XML the object the XML checker made
   * of it; for CSV nothing (its media type is checked).
   */
  body?: unknown;
  /** The request's query and headers, where they name the operation that answers (`view`, `Prefer`). */
  asked?: AskedFor;
}

/**
 * Returns the problems found; empty when the response is what the contract documents. `headers: false` leaves the
 * header fields unchecked (a body on its own, such as an example of one).
 */
export type BodyFormat = 'json' | 'xml' | 'ndjson' | 'csv' | 'none';

export function contractProblems(
  response: ObservedResponse, bodyFormat: BodyFormat, { headers = true } = {},
): string[] {
  const where = `${response.method} ${response.path} -> ${response.status}`;
  if (!pathTemplate(response.path)) return response.status === 404 || response.status === 401 || response.status === 406
    ? [] : [`${where}: no such path in openapi.yaml`];
  const answering = answeringOperation(response.method, response.path, response.asked);
  if (!answering) return response.status === 405 || response.status === 401 ? [] : [`${where}: method not documented`];
  const responsePointer = pointer('paths', answering.template, answering.method, 'responses', String(response.status));
  const { pointer: at, node } =
    dereference(responsePointer) as { pointer: string; node: DocumentedResponse | undefined };
  if (!node) return [`${where}: status not documented`];
  const problems: string[] = [];
  const content = node.content;
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim();
  if (!content) {
    if (bodyFormat !== 'none') problems.push(`${where}: documented without body, got ${mediaType}`);
  } else {
    problems.push(...bodyProblems(response, bodyFormat, where, at, content, mediaType));
  }
  for (const name of headers ? Object.keys(node.headers ?? {}) : []) {
    const value = response.headers.get(name);
    const header = dereference(`${at}${pointer('headers', name)}`).node as { required?: boolean;
      schema?: { pattern?: string; maxLength?: number } } | undefined;
    if (value === null && header?.required) problems.push(`${where}: required header ${name} missing`);
    if (value !== null && header?.schema?.pattern && !new RegExp(header.schema.pattern).test(value))
      problems.push(`${where}: header ${name}: ${value}`);
    if (value !== null && value.length > (header?.schema?.maxLength ?? Infinity))
      problems.push(`${where}: header ${name} longer than ${header?.schema?.maxLength}: ${value.length}`);
  }
  return problems;
}

function bodyProblems(response: ObservedResponse, bodyFormat: BodyFormat, where: string, at: string,
  content: Record<string, unknown>, mediaType: string | undefined): string[] {
  if (!mediaType || !content[mediaType]) return [`${where}: media type ${mediaType} not documented`];
  if (bodyFormat === 'none' || bodyFormat === 'csv' || (bodyFormat === 'xml' && response.body === undefined)) return [];
  const schema = `openapi#${at}${pointer('content', mediaType, 'schema')}`;
  const validate = ajv.getSchema(schema) ?? ajv.compile({ $ref: schema });
  // JSON lines: the media type's schema is that of one line (each a row of the list).
  const values = bodyFormat === 'ndjson' ? response.body as unknown[] : [response.body];
  return values.flatMap((value, index) => validate(value) ? []
    : [`${where}: ${bodyFormat === 'ndjson' ? `line ${index + 1} ` : ''}body ${JSON.stringify(value)} ` +
      ajv.errorsText(validate.errors)]);
}
