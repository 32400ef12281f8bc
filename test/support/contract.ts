// Checks a response against openapi.yaml: documented status, media type, body schema and headers.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../../src/validation/openapi-document.ts';
import { customFormats } from '../../src/validation/formats.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
for (const [name, format] of Object.entries(customFormats)) ajv.addFormat(name, format);
ajv.addSchema(openApiDocument, 'openapi');

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const at = (pointer: string): unknown => pointer.split('/').slice(1)
  .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], openApiDocument);

const templates = Object.keys(openApiDocument.paths as object).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** Follows `$ref`s, keeping the JSON pointer of where the object really is. */
function deref(pointer: string): { pointer: string; node: Record<string, unknown> | undefined } {
  let node = at(pointer) as Record<string, unknown> | undefined;
  while (node && typeof node.$ref === 'string') {
    pointer = node.$ref.slice(1);
    node = at(pointer) as Record<string, unknown> | undefined;
  }
  return { pointer, node };
}

export interface ObservedResponse {
  method: string;
  /** The path below the base path, e.g. `/sighting/-1`. */
  path: string;
  status: number;
  headers: Headers;
  /** Parsed body: JSON value, or for XML the object the XML checker made of it. */
  body?: unknown;
}

/** Returns the problems found; empty when the response is what the contract documents. */
export function contractProblems(response: ObservedResponse, bodyFormat: 'json' | 'xml' | 'none'): string[] {
  const where = `${response.method} ${response.path} -> ${response.status}`;
  const template = templates.find((t) => t.pattern.test(response.path))?.template;
  if (!template) return response.status === 404 || response.status === 401 || response.status === 406 ? [] : [`${where}: no such path in openapi.yaml`];
  const operation = `/paths/${escape(template)}/${response.method.toLowerCase()}`;
  if (!at(operation)) return response.status === 405 || response.status === 401 ? [] : [`${where}: method not documented`];
  const { pointer, node } = deref(`${operation}/responses/${response.status}`);
  if (!node) return [`${where}: status not documented`];
  const problems: string[] = [];
  const content = node.content as Record<string, unknown> | undefined;
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim();
  if (!content) {
    if (bodyFormat !== 'none') problems.push(`${where}: documented without body, got ${mediaType}`);
  } else if (bodyFormat === 'none' && response.status === 201) {
    // A create answers its body only when asked (`Prefer: return=representation`); the Prefer tests check that body.
  } else if (!mediaType || !content[mediaType]) {
    problems.push(`${where}: media type ${mediaType} not documented`);
  } else if (bodyFormat === 'json' || (bodyFormat === 'xml' && response.body !== undefined)) {
    const validate = ajv.getSchema(`openapi#${pointer}/content/${escape(mediaType)}/schema`) ?? ajv.compile({ $ref: `openapi#${pointer}/content/${escape(mediaType)}/schema` });
    if (!validate(response.body)) problems.push(`${where}: body ${JSON.stringify(response.body)} ${ajv.errorsText(validate.errors)}`);
  }
  for (const [name, header] of Object.entries((node.headers ?? {}) as Record<string, { schema?: { pattern?: string } }>)) {
    const value = response.headers.get(name);
    const pattern = deref(`${pointer}/headers/${escape(name)}`).node?.schema as { pattern?: string } | undefined;
    if (value !== null && pattern?.pattern && !new RegExp(pattern.pattern).test(value)) problems.push(`${where}: header ${name}: ${value}`);
    void header;
  }
  return problems;
}
