// Writes the next migration from the entities: what a database migrated so far (PGlite in memory) lacks to match them.
// Usage: npm run migration:create -- <kebab-case-name>, e.g. `npm run migration:create -- planet`.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { openServiceDatabase } from '../src/lifecycle/service-database.ts';
import { ReadRouting } from '../src/db/read-routing.ts';
import { createLogger } from '../src/observability/logger.ts';
import { withinWidth } from './migration-width.ts';

const name = process.argv[2] ?? '';
if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
  console.error('usage: npm run migration:create -- <kebab-case-name>');
  process.exit(2);
}

// Only what this run needs: the environment's database settings must not point it at a real database.
const config = loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'warn' });
const orm = await openServiceDatabase(config, { logger: createLogger(config), readRouting: new ReadRouting(0, 0) });
try {
  const { fileName, diff } = await orm.migrator.create(undefined, false, false, name);
  if (!fileName) {
    console.log('The migrations already give the entities\' schema: nothing to write.');
  } else {
    // MikroORM's template, with the module header our files have and lines the width rule admits.
    const path = join(orm.config.get('migrations').path!, fileName);
    await writeFile(path, withinWidth(
      `// ${name}: generated from the entities by npm run migration:create.\n${await readFile(path, 'utf8')}`));
    console.log(`${path}: ${diff.up.length} statements; review it and commit it with the entity.`);
  }
} finally {
  await orm.close();
}
