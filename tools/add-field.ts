// Adds a field to a collection: its contract parts in openapi.yaml, the entity's property, the descriptor's line,
// the messages and a migration, then the generated contract types. Usage (tools/resource/description.ts says the
// grammar of a field):   npm run resource:add-field -- planet 'radius:integer(0..)'
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DescriptionError, parseField, snake, type Collection, type Field } from './resource/description.ts';
import { withField } from './resource/field-part.ts';
import { descriptorWithField, entityWithField } from './resource/field-code.ts';
import { messagesOf } from './resource/messages.ts';

const root = join(import.meta.dirname, '..');
const usage = 'usage: npm run resource:add-field -- <collection> '
  + '<field>:text(<min>..<max>)|<field>:integer(<min>..[<max>])';

function described(): { collection: Collection; field: Field } {
  const [name = '', argument = '', ...rest] = process.argv.slice(2);
  try {
    if (!/^[a-z]{2,30}$/.test(name) || rest.length) throw new DescriptionError(`"${name}" is no collection name`);
    // Records stored before the field have none, and clients written before it send none: it is optional.
    const field = { ...parseField(argument), optional: true };
    if (['version', `${name}Id`].includes(field.name)) {
      throw new DescriptionError(`version and ${name}Id are the server's fields`);
    }
    return { collection: { name, fields: [field], read: 'reader', write: 'admin' }, field };
  } catch (error) {
    if (!(error instanceof DescriptionError)) throw error;
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
}

const { collection, field } = described();
const entity = join(root, `src/db/entities/${collection.name}.entity.ts`);
const descriptor = join(root, `src/resources/${collection.name}.resource.ts`);
for (const file of [entity, descriptor]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: there is no ${collection.name} collection to add to`);
}

const contract = join(root, 'openapi.yaml');
const entitySource = await readFile(entity, 'utf8');
if (new RegExp(`^\\s+${field.name}: p\\.`, 'm').test(entitySource)) {
  throw new Error(`${entity} has a ${field.name} already`);
}
// Every file is read and changed in memory first: a collection whose files do not have the generated shape is
// refused before anything is written.
const changed = new Map<string, string>([
  [contract, withField(await readFile(contract, 'utf8'), collection, field)],
  [entity, entityWithField(entitySource, collection, field, entity)],
  [descriptor, descriptorWithField(await readFile(descriptor, 'utf8'), field, descriptor)],
]);
for (const [locale, added] of Object.entries(messagesOf(collection))) {
  const file = join(root, `locales/${locale}.json`);
  const texts = { ...JSON.parse(await readFile(file, 'utf8')), ...added } as Record<string, string>;
  changed.set(file, `${JSON.stringify(texts, null, 2)}\n`);
}
for (const [file, text] of changed) await writeFile(file, text);

const node = process.execPath;
const migration = `${collection.name}-${snake(field.name).replace(/_/g, '-')}`;
execFileSync(node, [join(root, 'tools/create-migration.ts'), migration], { cwd: root, stdio: 'inherit' });
const generator = join(root, 'node_modules/openapi-typescript/bin/cli.js');
execFileSync(node, [generator, 'openapi.yaml', '-o', 'generated/openapi.ts'], { cwd: root, stdio: 'inherit' });
console.log(`The ${collection.name} collection has its ${field.name}: review the files and commit them.`);
