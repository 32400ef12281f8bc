// The contract's schemas: a component by name, and the schema of a property or a field path below a schema.
import { openApiDocument, type Reference, type Schema } from './document.ts';
import { referencedNode } from './references.ts';

export const componentSchema = (name: string): Schema | undefined => openApiDocument.components.schemas[name];

/** A declared property's schema, else the object's `additionalProperties` one. */
export function propertySchema(schema: Schema | undefined, name: string): Schema | undefined {
  // Own properties only: a name a client sends (an XML element `<constructor>`) is never an Object.prototype member.
  const declared = schema?.properties && Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
  const property = declared ?? (typeof schema?.additionalProperties === 'object' ? schema.additionalProperties
    : undefined);
  return property && nullable(referencedNode(property));
}

/** A nullable reference (`oneOf: [{$ref: …}, {type: 'null'}]`, a history entry's record) read as what it refers to. */
function nullable(schema: Schema): Schema {
  const alternatives = schema.oneOf as Array<Schema | Reference> | undefined;
  const others =
    alternatives?.map((alternative) => referencedNode(alternative)).filter((alternative) =>
    alternative.type !== 'null');
  return others?.length === 1 ? others[0]! : schema;
}

/** The schema at a field path (`['vessel', 'vesselId']`) below `schema`, or undefined where it declares none. */
export function schemaAt(schema: Schema | undefined, path: string[]): Schema | undefined {
  return path.reduce((current, segment) => propertySchema(current, segment), schema && referencedNode(schema));
}
