// Turns an XML element tree into the object the same request would have as JSON, typed by the body schema.
// It only decides types; the rules stay with express-openapi-validator, so they never differ between the formats.
import { BadRequest, ValidationFailed } from '../../errors/app-errors.ts';
import type { Schema } from '../../contract/document.ts';
import { propertySchema } from '../../contract/schemas.ts';
import type { XmlElement } from './xml-document.ts';
import { keyedMap } from './xml-schema.ts';
import { fromXmlName } from './xml-names.ts';

export const xsiNamespace = 'http://www.w3.org/2001/XMLSchema-instance';

// The JSON number grammar (RFC 8259 §6), so `<vesselId>12</vesselId>` is 12 and `abc` stays text for the validator to
// refuse.
const jsonNumber = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** How a number's text becomes a value: JSON.parse with the JSON body parser's reviver, so both formats agree. */
export type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;
type NumberOf = (text: string) => unknown;

/** The body for `schema` (undefined: untyped, every leaf a string); the root must be the schema's `xml.name`. */
export function xmlToValue(root: XmlElement, schema: Schema | undefined, reviver?: Reviver): unknown {
  const expected = schema?.xml?.name;
  if (expected && root.name !== expected) throw new BadRequest('error.xmlRoot', { name: expected });
  return value(root, schema, [], (text) => JSON.parse(text, reviver as never));
}

/**
 * A list document (`<collection><sighting>…</sighting>…</collection>`, a batch's body): each child element is one
 * record, typed by `record` and named by its `xml.name`; the root is the list schema's `xml.name`.
 */
export function xmlListToValue(root: XmlElement, list: Schema | undefined, record: Schema,
  reviver?: Reviver): unknown[] {
  const expected = list?.xml?.name;
  if (expected && root.name !== expected) throw new BadRequest('error.xmlRoot', { name: expected });
  if (root.text.trim() !== '') throw new ValidationFailed([{ field: root.name, key: 'error.xml.mixedContent' }]);
  return root.children.map((child) => xmlRecordToValue(child, record, reviver));
}

/** One record of a list document (an element of `<collection>`), typed by `record` and named by its `xml.name`. */
export function xmlRecordToValue(element: XmlElement, record: Schema, reviver?: Reviver): unknown {
  if (record.xml?.name && element.name !== record.xml.name) {
    throw new BadRequest('error.xmlRoot', { name: record.xml.name });
  }
  return value(element, record, [], (text) => JSON.parse(text, reviver as never));
}

const typesOf = (schema: Schema | undefined) => new Set([schema?.type ?? []].flat());
const isNil = (element: XmlElement) => element.attributes.some((a) => a.uri === xsiNamespace && a.local === 'nil'
  && (a.value === 'true' || a.value === '1'));
const fieldOf = (element: XmlElement, path: string[]) => path.join('.') || element.name;

function value(element: XmlElement, schema: Schema | undefined, path: string[], number: NumberOf): unknown {
  if (isNil(element)) return null;
  if (element.children.length === 0) return leaf(element.text, schema, number);
  // An element holds text or elements; JSON has no way to say both, so neither may XML.
  if (element.text.trim() !== '') throw new ValidationFailed([{ field: fieldOf(element, path),
    key: 'error.xml.mixedContent' }]);
  const map = keyedMap(schema);
  return map ? entries(element, map, path, number) : record(element, schema, path, number);
}

/** Text as the schema types it: a string wherever a string is allowed, a number only when it is one. */
function leaf(text: string, schema: Schema | undefined, number: NumberOf): unknown {
  // Untyped (no schema, or one without `type`): every leaf a string.
  const types = typesOf(schema);
  if (types.has('string') || types.size === 0) return text;
  const trimmed = text.trim();
  if ((types.has('integer') || types.has('number')) && jsonNumber.test(trimmed)) return number(trimmed);
  if (types.has('boolean') && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  // `<vessel/>` and `<vesselName/>`: an object with nothing in it.
  if (types.has('object') && trimmed === '') return {};
  return text;
}

/** One property per child element; a child given twice is an error (JSON would silently keep the last). */
function record(element: XmlElement, schema: Schema | undefined, path: string[],
  number: NumberOf): Record<string, unknown> {
  const seen = new Set<string>();
  return Object.fromEntries(element.children.map((child) => {
    const name = fromXmlName(child.name);
    const field = [...path, name];
    if (seen.has(name)) throw new ValidationFailed([{ field: field.join('.'), key: 'error.xml.duplicate' }]);
    seen.add(name);
    return [name, value(child, propertySchema(schema, name), field, number)];
  }));
}

/** A keyed map: `<vesselName><text xml:lang="en">…</text></vesselName>` is `{ "en": "…" }`. */
function entries(element: XmlElement, map: NonNullable<ReturnType<typeof keyedMap>>, path: string[],
  number: NumberOf): Record<string, unknown> {
  const seen = new Set<string>();
  return Object.fromEntries(element.children.map((child) => {
    const key = child.attributes.find((a) => a.name === map.attribute)?.value;
    if (child.name !== map.element || key === undefined) {
      throw new ValidationFailed([{ field: fieldOf(element, path), key: 'error.xml.mapEntry' }]);
    }
    const field = [...path, key];
    if (seen.has(key)) throw new ValidationFailed([{ field: field.join('.'), key: 'error.xml.duplicate' }]);
    seen.add(key);
    return [key, value(child, map.entry, field, number)];
  }));
}
