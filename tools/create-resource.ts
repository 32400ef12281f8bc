// Writes a working collection from a short description: its part of openapi.yaml, entity, descriptor, messages and
// migration, then the generated contract types. Usage (tools/resource/description.ts says the grammar):
//   npm run resource:create -- planet planetName:text(2..50) mass:integer(0..) [--read reader] [--write admin]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DescriptionError, parseDescription, type Collection } from './resource/description.ts';
import { withCollection } from './resource/contract-part.ts';
import { descriptorFile, entityFile } from './resource/code-files.ts';
import { messagesOf } from './resource/messages.ts';

const root = join(import.meta.dirname, '..');

function described(): Collection {
  try {
    return parseDescription(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof DescriptionError)) throw error;
    console.error(`${error.message}\nusage: npm run resource:create -- <name> <field>:text(<min>..<max>) \
<field>:integer(<min>..[<max>]) … [--read reader|writer|admin] [--write reader|writer|admin]`);
    process.exit(2);
  }
}

const collection = described();
const entity = join(root, `src/db/entities/${collection.name}.entity.ts`);
const descriptor = join(root, `src/resources/${collection.name}.resource.ts`);
for (const file of [entity, descriptor]) {
  if (existsSync(file)) throw new Error(`${file} exists: the ${collection.name} collection is there already`);
}

const contract = join(root, 'openapi.yaml');
await writeFile(contract, withCollection(await readFile(contract, 'utf8'), collection));
await writeFile(entity, entityFile(collection));
await writeFile(descriptor, descriptorFile(collection));
for (const [locale, added] of Object.entries(messagesOf(collection))) {
  const file = join(root, `locales/${locale}.json`);
  const texts = { ...JSON.parse(await readFile(file, 'utf8')), ...added } as Record<string, string>;
  await writeFile(file, `${JSON.stringify(texts, null, 2)}\n`);
}

// The migration is MikroORM's difference between the entities (the new one among them) and the migrated schema.
const node = process.execPath;
execFileSync(node, [join(root, 'tools/create-migration.ts'), collection.name], { cwd: root, stdio: 'inherit' });
const generator = join(root, 'node_modules/openapi-typescript/bin/cli.js');
execFileSync(node, [generator, 'openapi.yaml', '-o', 'generated/openapi.ts'], { cwd: root, stdio: 'inherit' });
console.log(`The ${collection.name} collection is written: review the files and commit them.`);
