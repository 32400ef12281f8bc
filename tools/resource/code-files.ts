// A collection's TypeScript: its MikroORM entity and its descriptor for the generic CRUD machinery.
import { fieldSchema, pascal, snake, type Collection, type Field } from './description.ts';

/** A field's line among the entity's properties: a text sized by its schema in the contract. */
export const propertyLine = (collection: Collection, field: Field) => `    ${field.name}: ${field.type === 'integer'
  ? 'p.integer()' : `p.string().length(textLength('${fieldSchema(collection, field)}').max)`}${
  field.optional ? '.nullable()' : ''},`;

/** A text's index among the entity's: a query by example compares a text as a substring, which a trigram serves. */
export function indexEntry(table: string, field: Field): string {
  const index = `${table}_${snake(field.name)}_trgm`;
  return `    {\n      name: '${index}',\n      expression: 'create index "${index}" on "${table}" '\n`
    + `        + 'using gin ("${snake(field.name)}" gin_trgm_ops)',\n    },`;
}

/** `src/db/entities/<name>.entity.ts`: the id, the version, a column per field; texts sized by the contract. */
export function entityFile(collection: Collection): string {
  const { name } = collection;
  const type = pascal(name);
  const indexes = collection.fields.filter((field) => field.type === 'text').map((field) => indexEntry(name, field));
  return `// The ${name} table (written by npm run resource:create).
import { defineEntity, p } from '@mikro-orm/core';
import { textLength } from '../../contract/bounds.ts';

export const ${type}Schema = defineEntity({
  name: '${type}',
  tableName: '${name}',
  indexes: [
${indexes.join('\n')}
  ],
  properties: {
    ${name}Id: p.bigint('number').primary().autoincrement(),
    version: p.integer().version().default(0),
${collection.fields.map((field) => propertyLine(collection, field)).join('\n')}
  },
});

export class ${type} extends ${type}Schema.class {}
${type}Schema.setClass(${type});
`;
}

/** A field's line in a descriptor's list of fields: the generic rules fit every field the description can say. */
export const fieldLine = (field: Field) => `    field('${field.name}'),`;

/** `src/resources/<name>.resource.ts`: the list of fields, one a line, from which the views and values derive. */
export function descriptorFile(collection: Collection): string {
  const { name, fields } = collection;
  const type = pascal(name);
  return `// The ${name} collection as data for the generic CRUD machinery (written by npm run resource:create).
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { field, fromFields, idField, versionField } from '../crud/fields.ts';
import { ${type} } from '../db/entities/${name}.entity.ts';

export default {
  name: '${name}',
  entity: ${type},
  idProperty: '${name}Id',
  populate: [],
  access: { read: '${collection.read}', create: '${collection.write}', change: '${collection.write}' },
  ...fromFields([
    versionField(),
    idField('${name}Id'),
${fields.map(fieldLine).join('\n')}
  ]),
} satisfies ResourceDescriptor<${type}>;
`;
}
