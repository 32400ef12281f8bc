// Turns an XML response body into the object its JSON twin would be, so the same schema checks it; fails on a wrong XML
// shape.
// Independent of the service's own XML code on purpose: it reads what openapi.yaml declares (`xml.name`,
// `x-xml-key-attribute`).
import { Parser } from 'xml2js';
import type { Schema } from '../../src/contract/document.ts';
import { answeringOperation, operationFor, type AskedFor } from './contract-paths.ts';
import { referencedNode } from '../../src/contract/references.ts';
import { propertySchema } from '../../src/contract/schemas.ts';

const xsi = 'http://www.w3.org/2001/XMLSchema-instance';
const declaration = '<?xml version="1.0" encoding="UTF-8"?>';

type Node = { '#name': string; $?: Record<string, { name: string; value: string; uri: string; local: string }>;
  $ns?: unknown; $$?: Node[]; _?: string };

/** The `text/xml` schema documented for this response, or undefined (then contract.ts reports what is missing). */
export function xmlResponseSchema(path: string, method: string, status: number, asked?: AskedFor): Schema | undefined {
  const answering = answeringOperation(method, path, asked);
  const response = answering && operationFor(answering.method, answering.template)?.responses?.[String(status)];
  const content = response
    ? referencedNode(response as { content?: Record<string, { schema?: Schema }> }).content : undefined;
  return content?.['text/xml']?.schema;
}

export async function xmlBodyForContract(text: string, path: string, method: string, status: number,
  asked?: AskedFor): Promise<unknown> {
  const schema = xmlResponseSchema(path, method, status, asked);
  if (!schema) return undefined;
  const { value, problems } = xmlToContractValue(text, schema);
  if (problems.length) throw new Error(`response breaks openapi.yaml (XML shape) ` +
    `at ${method} ${path} -> ${status}:\n${problems.join('\n')}\n${text}`);
  return value;
}

/**
 * The JSON-equivalent value of an XML document read by `schema`, and every way the XML departs from the declared shape.
 */
export function xmlToContractValue(text: string, schema: Schema): { value: unknown; problems: string[] } {
  const problems: string[] = [];
  if (!text.startsWith(declaration)) problems.push(`no XML declaration ${declaration}`);
  const root = parse(text);
  const resolved = referencedNode(schema);
  const expected = resolved.xml?.name;
  if (!expected) problems.push('the schema declares no xml name for the root');
  if (root['#name'] !== expected) problems.push(`root element <${root['#name']}>, expected <${expected}>`);
  return { value: convert(root, resolved, root['#name'], problems), problems };
}

function parse(text: string): Node {
  let result: Record<string, Node> | undefined;
  let failure: Error | null = null;
  new Parser({ explicitChildren: true, preserveChildrenOrder: true, charsAsChildren: true,
    includeWhiteChars: true, xmlns: true })
    .parseString(text, (error: Error | null, parsed: Record<string, Node>) => {
      failure ??= error;
      result = parsed;
    });
  if (failure || !result) throw new Error(`response is not well-formed XML: ${failure}\n${text}`);
  return Object.values(result)[0]!;
}

const elements = (node: Node) => (node.$$ ?? []).filter((child) => child.$ns !== undefined);
const textOf = (node: Node) =>
  (node.$$ ?? []).filter((child) => child.$ns === undefined).map((child) => child._ ?? '').join('');
const typesOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);
const decodeName = (name: string) => (name === '_x_' ? ''
  : name.replace(/_x([0-9A-F]{4,6})_/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16))));

function convert(node: Node, schema: Schema, where: string, problems: string[]): unknown {
  const nil = Object.values(node.$ ?? {}).find((a) => a.local === 'nil' && a.uri === xsi);
  if (nil) {
    if (nil.value !== 'true') problems.push(`${where}: xsi:nil="${nil.value}"`);
    if (elements(node).length || textOf(node)) problems.push(`${where}: xsi:nil with content`);
    return null;
  }
  // A list's row in either view (`view=detail`): it must fit one of the alternatives, whole.
  const alternatives = (schema as Schema & { anyOf?: Schema[] }).anyOf;
  if (alternatives) {
    const readings = alternatives.map((alternative) => {
      const found: string[] = [];
      return { value: convert(node, referencedNode(alternative), where, found), found };
    });
    const fitting = readings.find(({ found }) => found.length === 0) ?? readings[0]!;
    problems.push(...fitting.found);
    return fitting.value;
  }
  const children = elements(node);
  const types = typesOf(schema);
  if (types.includes('array')) {
    const item = referencedNode(schema.items!);
    // The alternatives of an `anyOf` row share their element name.
    const name = item.xml?.name ?? referencedNode((item as Schema & { anyOf?: Schema[] }).anyOf?.[0] ?? item).xml?.name;
    return children.map((child, index) => {
      if (child['#name'] !== name) problems.push(`${where}[${index}]: element <${child['#name']}>, expected <${name}>`);
      return convert(child, item, `${where}/${child['#name']}`, problems);
    });
  }
  if (schema['x-xml-key-attribute']) return keyedMap(node, schema, where, problems);
  if (types.includes('object') || schema.properties) return record(node, schema, where, problems);
  if (children.length) problems.push(`${where}: elements where a ${types.join('|')} belongs`);
  const text = textOf(node);
  if ((types.includes('integer') || types.includes('number')) && /^-?(0|[1-9]\d*)(\.\d+)?$/.test(text))
    return Number(text);
  return text;
}

function record(node: Node, schema: Schema, where: string, problems: string[]): Record<string, unknown> {
  const declared = Object.keys(schema.properties ?? {});
  const children = elements(node);
  const names = children.map((c) => c['#name']);
  const known = names.filter((n) => declared.includes(n));
  const inOrder = declared.filter((n) => known.includes(n));
  if (known.join() !== inOrder.join())
    problems.push(`${where}: elements in order ${known.join(', ')}, the view's order is ${inOrder.join(', ')}`);
  if (textOf(node).trim()) problems.push(`${where}: text beside elements`);
  return Object.fromEntries(children.map((child) => {
    const name = child['#name'];
    const property = propertySchema(schema, name);
    if (!property) problems.push(`${where}: unexpected element <${name}>`);
    return [decodeName(name), property ? convert(child, property, `${where}/${name}`, problems) : textOf(child)];
  }));
}

function keyedMap(node: Node, schema: Schema, where: string, problems: string[]): Record<string, unknown> {
  const entry = referencedNode(schema.additionalProperties as Schema);
  const attribute = schema['x-xml-key-attribute'] as string;
  return Object.fromEntries(elements(node).map((child) => {
    const key = child.$?.[attribute]?.value;
    if (child['#name'] !== entry.xml?.name || key === undefined)
      problems.push(`${where}: <${child['#name']}> is not <${entry.xml?.name} ${attribute}="…">`);
    return [key, convert(child, entry, `${where}/${child['#name']}`, problems)];
  }));
}
