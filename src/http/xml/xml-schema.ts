// What openapi.yaml declares about the XML shape: root names (`xml.name`), keyed maps, and each operation's body schema.
import { openApiDocument, resolve, type Schema } from '../../validation/openapi-document.ts';

/** A map written as one element per entry, the key in an attribute: `<text xml:lang="en">…</text>` (LanguageMap). */
export interface KeyedMap {
  element: string;
  attribute: string;
  entry: Schema;
}

export function keyedMap(schema: Schema | undefined): KeyedMap | undefined {
  const attribute = schema?.['x-xml-key-attribute'];
  if (typeof attribute !== 'string' || typeof schema?.additionalProperties !== 'object') return undefined;
  const entry = resolve(schema.additionalProperties);
  return { element: entry.xml?.name ?? 'entry', attribute, entry };
}

/** The alternatives a schema stands for: itself, or each branch of its `oneOf`, resolved. */
export function alternatives(schema: Schema | undefined): Schema[] {
  if (!schema) return [];
  const resolved = resolve(schema);
  return resolved.oneOf ? resolved.oneOf.flatMap((branch) => alternatives(branch)) : [resolved];
}

/** The schemas a child element `name` may follow, among the alternatives of its parent. */
export function childSchemas(parents: Schema[], name: string): Schema[] {
  return parents.flatMap((parent) => {
    const property = parent.properties?.[name] ?? (typeof parent.additionalProperties === 'object' ? parent.additionalProperties : undefined);
    return alternatives(property);
  });
}

const componentSchemas = Object.values(((openApiDocument.components as { schemas?: Record<string, Schema> }).schemas) ?? {});

/** Every component schema whose root element is `name` (e.g. all the `sighting` views, or `errors`). */
export function schemasNamed(name: string): Schema[] {
  return componentSchemas.filter((schema) => schema.xml?.name === name).flatMap((schema) => alternatives(schema));
}

type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> } };
const paths = openApiDocument.paths as Record<string, Record<string, Operation>>;
// Fixed paths before templated ones (`/sighting/qbe` before `/sighting/{id}`); `{id}` is greedy (contract A).
const templates = Object.keys(paths)
  .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '.+')}/?$`) }));

/** The request body schema of the operation at `method` and `path` (below the base path), or undefined. */
export function requestBodySchema(method: string, path: string, mediaType: string): Schema | undefined {
  const template = templates.find((t) => t.pattern.test(path))?.template;
  const content = template ? paths[template]?.[method.toLowerCase()]?.requestBody?.content : undefined;
  const schema = (content?.[mediaType] ?? content?.['text/xml'] ?? content?.['application/json'])?.schema;
  return schema && resolve(schema);
}
