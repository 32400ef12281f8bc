// What openapi.yaml declares about the XML shape: root names (`xml.name`), keyed maps, and each operation's body
// schema.
import { openApiDocument, type Operation, type Reference, type Schema } from '../../contract/document.ts';
import { referencedNode } from '../../contract/references.ts';
import { propertySchema } from '../../contract/schemas.ts';

/** A map written as one element per entry, the key in an attribute: `<text xml:lang="en">…</text>` (LanguageMap). */
export interface KeyedMap {
  element: string;
  attribute: string;
  entry: Schema;
}

export function keyedMap(schema: Schema | undefined): KeyedMap | undefined {
  const attribute = schema?.['x-xml-key-attribute'];
  if (typeof attribute !== 'string' || typeof schema?.additionalProperties !== 'object') return undefined;
  const entry = referencedNode(schema.additionalProperties);
  return { element: entry.xml?.name ?? 'entry', attribute, entry };
}

/** The schemas a child element `name` may follow, among those its parent may follow. */
export function childSchemas(parents: Schema[], name: string): Schema[] {
  return parents.map((parent) => propertySchema(parent, name)).filter((schema) => schema !== undefined);
}

/** Every component schema whose root element is `name` (e.g. all the `sighting` views, or `errors`). */
export function schemasNamed(name: string): Schema[] {
  return Object.values(openApiDocument.components.schemas).filter((schema) => schema.xml?.name === name);
}

/** The operation's request body schema for `mediaType` (else its XML or JSON one), or undefined. */
export function requestBodySchema(operation: Operation | undefined, mediaType: string): Schema | undefined {
  const content = operation?.requestBody?.content;
  const schema = (content?.[mediaType] ?? content?.['text/xml'] ?? content?.['application/json'])?.schema;
  return schema && referencedNode(schema);
}

/**
 * The schema each record of a list body (a batch's `<collection>`) is read by: its media type's `x-record-schema` in
 * openapi.yaml (the collection's create body), or undefined for a body that is one record.
 */
export function recordSchema(operation: Operation | undefined, mediaType: string): Schema | undefined {
  const content = operation?.requestBody?.content as Record<string, { 'x-record-schema'?: Schema | Reference }>
    | undefined;
  const schema = (content?.[mediaType] ?? content?.['text/xml'])?.['x-record-schema'];
  return schema && referencedNode(schema);
}
