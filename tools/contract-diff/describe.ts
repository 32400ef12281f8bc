// Short readable names of schemas and values for the changelog: `string (date)`, `SightingDetail`, `[a, b]`.
import { isNode, type Contract } from './document.ts';

/** A keyword's value for a message: `none` when absent, a string as it is (patterns stay readable), else JSON. */
export const show = (value: unknown): string =>
  (value === undefined ? 'none' : `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``);

/** The JSON types a schema allows, or undefined for any (`nullable: true` of OpenAPI 3.0 adds `null`). */
export function typesOf(schema: Record<string, unknown>): string[] | undefined {
  const declared = schema.type;
  if (declared === undefined) return undefined;
  const types = (Array.isArray(declared) ? declared : [declared]).map(String);
  return schema.nullable === true && !types.includes('null') ? [...types, 'null'] : types;
}

/** What a schema is, in a few words: its component name, else its type(s) and format, else its combinator. */
export function describe(contract: Contract, raw: unknown, depth = 0): string {
  if (raw === true) return 'any';
  if (raw === false) return 'nothing';
  const { node, name } = contract.resolve(raw);
  if (name) return name;
  const types = typesOf(node);
  const format = typeof node.format === 'string' ? ` (${node.format})` : '';
  const listed = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : undefined;
  const values = listed ? ` ${JSON.stringify(listed)}` : '';
  if (types?.includes('array') && node.items !== undefined && depth < 3) {
    const rest = types.filter((type) => type !== 'array');
    return [`array of ${describe(contract, node.items, depth + 1)}`, ...rest].join(' | ');
  }
  if (types) return `${types.join(' | ')}${format}${values}`;
  for (const kind of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = node[kind];
    if (Array.isArray(branches) && depth < 3) {
      return `${kind} [${branches.map((branch) => describe(contract, branch, depth + 1)).join(', ')}]`;
    }
  }
  if (values) return values.trim();
  return isNode(node.properties) ? 'object' : 'any';
}
