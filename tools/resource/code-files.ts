// A collection's TypeScript: its MikroORM entity and its descriptor for the generic CRUD machinery.
import { fieldSchema, pascal, snake, type Collection, type Field } from './description.ts';

const property = (collection: Collection, field: Field) => field.type === 'integer'
  ? `    ${field.name}: p.integer(),`
  : `    ${field.name}: p.string().length(textLength('${fieldSchema(collection, field)}').max),`;

/** `src/db/entities/<name>.entity.ts`: the id, the version, a column per field; texts sized by the contract. */
export function entityFile(collection: Collection): string {
  const { name } = collection;
  const type = pascal(name);
  // A query by example compares a text as a substring: a trigram index serves it.
  const indexes = collection.fields.filter((field) => field.type === 'text').map((field) => {
    const index = `${name}_${snake(field.name)}_trgm`;
    return `    {\n      name: '${index}',\n      expression: 'create index "${index}" on "${name}" using gin ("${
      snake(field.name)}" gin_trgm_ops)',\n    },`;
  });
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
${collection.fields.map((field) => property(collection, field)).join('\n')}
  },
});

export class ${type} extends ${type}Schema.class {}
${type}Schema.setClass(${type});
`;
}

/** `src/resources/<name>.resource.ts`: the generic rules fit every field, so the views and values are all it says. */
export function descriptorFile(collection: Collection): string {
  const { name, fields } = collection;
  const type = pascal(name);
  const id = `${name}Id`;
  const columns = [id, ...fields.map((field) => field.name)].map((each) => `'${each}'`).join(', ');
  const viewFields = [
    `${id}: Number(row.${snake(id)})`,
    ...fields.map((field) => `${field.name}: row.${snake(field.name)}`),
  ];
  const bodyType = (field: Field) => (field.type === 'text' ? 'string' : 'number');
  return `// The ${name} collection as data for the generic CRUD machinery (written by npm run resource:create).
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { rootFields } from '../crud/root-alias.ts';
import { ${type} } from '../db/entities/${name}.entity.ts';

export default {
  name: '${name}',
  entity: ${type},
  idProperty: '${id}',
  populate: [],
  access: { read: '${collection.read}', create: '${collection.write}', change: '${collection.write}' },
  selectView: (qb, view) => qb.select(rootFields(...view === 'list' ? [] : ['version'], ${columns})),
  listView: (row) => ({
${viewFields.map((each) => `    ${each},`).join('\n')}
  }),
  detailView: (row) => ({
    version: row.version,
${viewFields.map((each) => `    ${each},`).join('\n')}
  }),
  values: (body) => ({
${fields.map((field) => `    ${field.name}: body.${field.name} as ${bodyType(field)},`).join('\n')}
  }),
} satisfies ResourceDescriptor<${type}>;
`;
}
