// The contract's schemas: a component by name, and the schema a property or a field path below a schema has.
import { openApiDocument, type Schema } from './document.ts';
import { resolve } from './references.ts';

export function componentSchema(name: string): Schema {
  const schema = openApiDocument.components.schemas[name];
  if (!schema) throw new Error(`openapi.yaml: no schema ${name}`);
  return resolve(schema);
}

/** The schema of property `name` of an object schema: a declared property, else its `additionalProperties`. */
export function propertySchema(schema: Schema | undefined, name: string): Schema | undefined {
  const property = schema?.properties?.[name] ?? (typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined);
  return property && resolve(property);
}

/** The schema of a field path below `schema` (`['vessel', 'vesselId']`), or undefined where the schema declares none. */
export function schemaAt(schema: Schema | undefined, path: string[]): Schema | undefined {
  return path.reduce<Schema | undefined>((current, segment) => propertySchema(current, segment), schema && resolve(schema));
}
