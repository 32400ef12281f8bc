// docs/architecture.md's "adding a resource", followed for real: a copy of the project gets a `planet` collection from
// its contract part, entity, descriptor and messages alone, generates its migration, type-checks, and serves it.
import { expect } from 'chai';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { globSync, statSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { tokenFor, type User } from '../support/tokens.ts';
import { declaration } from '../xml/xml-client.ts';

const project = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);
/** What the service and the migration generator read; node_modules and the built web page are linked, not copied. */
const copiedParts = ['src', 'locales', 'keycloak', 'openapi.yaml', 'docs/changelog.md', 'package.json', 'scripts/create-migration.ts'];

// The planet's files, as a developer writes them: an entity and a descriptor.
const entity = `// The planet table.
import { defineEntity, p } from '@mikro-orm/core';
import { textLength } from '../../contract/bounds.ts';

export const PlanetSchema = defineEntity({
  name: 'Planet',
  tableName: 'planet',
  indexes: [{ name: 'planet_planet_name_trgm', expression: 'create index "planet_planet_name_trgm" on "planet" using gin ("planet_name" gin_trgm_ops)' }],
  properties: {
    planetId: p.bigint('number').primary().autoincrement(),
    version: p.integer().version().default(0),
    planetName: p.string().length(textLength('PlanetName').max).unique(),
  },
});

export class Planet extends PlanetSchema.class {}
PlanetSchema.setClass(Planet);
`;
const descriptor = `// The planet collection as data for the generic CRUD machinery.
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { Planet } from '../db/entities/planet.entity.ts';

export default {
  name: 'planet',
  entity: Planet,
  idProperty: 'planetId',
  populate: [],
  access: { read: 'reader', create: 'admin', change: 'admin' },
  selectView: (qb) => qb.select(['r.version', 'r.planetId', 'r.planetName']),
  listView: (row) => ({ planetId: Number(row.planet_id), planetName: row.planet_name }),
  detailView: (row) => ({ version: row.version, planetId: Number(row.planet_id), planetName: row.planet_name }),
  values: (body) => ({ planetName: body.planetName as string }),
} satisfies ResourceDescriptor<Planet>;
`;

type Contract = { tags: object[]; paths: Record<string, unknown>; components: Record<string, Record<string, unknown>> };

/** The planet's part of the contract: the timezone's paths, schemas and responses, renamed (the same shape: an id and a name). */
function withPlanets(contract: Contract): Contract {
  const planets = (part: Record<string, unknown>, prefix: string) => JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(part)
    .filter(([key]) => key.startsWith(prefix)))).replaceAll('Timezone', 'Planet').replaceAll('timezone', 'planet')) as Record<string, unknown>;
  const { paths, components: { schemas, responses } } = contract;
  return {
    tags: [...contract.tags, { name: 'planet', description: 'Planets.' }],
    paths: { ...paths, ...planets(paths, '/timezone') },
    components: { ...contract.components, schemas: { ...schemas, ...planets(schemas!, 'Timezone') }, responses: { ...responses, ...planets(responses!, 'Timezone') } },
  };
}

/** The planet's messages: the keys its part of openapi.yaml names. */
const messages = {
  en: { 'planet.name.required': 'The planet needs a name.', 'planet.name.tooLong': 'The planet name must have at most {max} characters.' },
  de: { 'planet.name.required': 'Der Planet braucht einen Namen.', 'planet.name.tooLong': 'Der Name des Planeten darf höchstens {max} Zeichen haben.' },
};

/** The copied files (all but the type check's tsconfig.json) that the project lacks or has with other content. */
async function changedFiles(root: string): Promise<string[]> {
  const copied = globSync([...copiedParts.map((part) => `${part}/**`), ...copiedParts], { cwd: root }).filter((file) => statSync(join(root, file)).isFile());
  const changed = await Promise.all(copied.map(async (file) => {
    const original = await readFile(join(project, file), 'utf8').catch(() => undefined);
    return original === await readFile(join(root, file), 'utf8') ? [] : [file];
  }));
  return changed.flat().sort();
}

async function edit(path: string, change: (text: string) => string): Promise<void> {
  await writeFile(path, change(await readFile(path, 'utf8')));
}

/** Starts the copy's `npm start` entry point; resolves with its origin once it listens. */
function startCopy(root: string, env: Record<string, string | undefined>): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['src/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the copy's service exited with ${code} before it listened`)));
    // Its log: JSON lines; the one saying it listens names its URL.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const { url } = (line.startsWith('{') ? JSON.parse(line) : {}) as { url?: string };
      if (url) resolve({ origin: new URL(url).origin, child });
    });
  });
}

describe('a fourth resource, added to a copy of the project @pgbouncer', () => {
  let root: string;
  let scratch: ScratchDatabase | undefined;
  let service: { origin: string; child: ChildProcess } | undefined;
  let migration: string;
  let migrationFile: string;

  before(async function () {
    // Two Node processes (the migration generator, the service), each starting PGlite, and a type check.
    this.timeout(300_000);
    root = await mkdtemp(join(tmpdir(), 'sighting-fourth-resource-'));
    for (const part of copiedParts) {
      await cp(join(project, part), join(root, part), { recursive: true });
    }
    for (const shared of ['node_modules', 'web']) await symlink(join(project, shared), join(root, shared));
    await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ ...JSON.parse(await readFile(join(project, 'tsconfig.json'), 'utf8')), include: ['src', 'scripts'] }));

    // Its part of openapi.yaml, its entity, its descriptor, its messages: nothing else is touched.
    await edit(join(root, 'openapi.yaml'), (text) => stringify({ ...parse(text), ...withPlanets(parse(text)) }));
    await writeFile(join(root, 'src/db/entities/planet.entity.ts'), entity);
    await writeFile(join(root, 'src/resources/planet.resource.ts'), descriptor);
    for (const [locale, added] of Object.entries(messages)) {
      await edit(join(root, `locales/${locale}.json`), (text) => JSON.stringify({ ...JSON.parse(text), ...added }, null, 2));
    }

    const before = new Set(await readdir(join(root, 'src/db/migrations')));
    await run(process.execPath, ['scripts/create-migration.ts', 'planet'], { cwd: root });
    const created = (await readdir(join(root, 'src/db/migrations'))).filter((file) => !before.has(file));
    expect(created).to.have.length(1);
    migrationFile = `src/db/migrations/${created[0]}`;
    migration = await readFile(join(root, migrationFile), 'utf8');
    await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', root]);

    scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
    // The run's own database and provider settings stay out (an empty value is an error, not "unset"): the scratch's instead.
    const own = new Set(['DATABASE_URL', 'DATABASE_DIRECT_URL', 'DATABASE_MIGRATION_URL', 'KEYCLOAK_URL', 'DATA_DIR']);
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !own.has(name)));
    service = await startCopy(root, { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...scratch?.env });
  });

  after(async function () {
    this.timeout(60_000);
    if (service?.child.exitCode === null) {
      const exited = new Promise((resolve) => service!.child.once('exit', resolve));
      service.child.kill('SIGTERM');
      await exited;
    }
    await scratch?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function call(user: User, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const token = await tokenFor(`${service!.origin}/realms/sighting`, user);
    const response = await fetch(`${service!.origin}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text && (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) };
  }

  it('when the copy is compared with the project, then the planet added its contract part, entity, descriptor, messages and generated migration, and touched nothing else', async () => {
    expect(await changedFiles(root)).to.deep.equal(['locales/de.json', 'locales/en.json', 'openapi.yaml', migrationFile, 'src/db/entities/planet.entity.ts', 'src/resources/planet.resource.ts'].sort());
  });

  it('when its migration is generated, then it creates the planet table from the entity, with the bound the contract sets', () => {
    expect(migration).to.include('create table "planet" ("planet_id" bigserial primary key, "version" int not null default 0, "planet_name" varchar(100) not null)');
    expect(migration).to.include('create index "planet_planet_name_trgm" on "planet" using gin ("planet_name" gin_trgm_ops)');
  });

  it('when planets are created, listed, read, updated, queried by example and deleted, then each answer is the generic one', async () => {
    const created = await call('admin', 'POST', '/planet', { planetName: 'Vulcan' });
    expect(created.status).to.equal(201);
    expect(created.headers.get('etag')).to.equal('"0"');
    const planetId = Number(created.headers.get('location')!.split('/').pop());
    expect(created.headers.get('location')).to.equal(`/api/planet/${planetId}`);
    await call('admin', 'POST', '/planet', { planetName: 'Romulus' });

    expect(await call('viewer', 'GET', '/planet?planetName=Vulcan')).to.deep.include({ status: 200, body: [{ planetId, planetName: 'Vulcan' }] });
    expect(await call('viewer', 'GET', `/planet/${planetId}`)).to.deep.include({ status: 200, body: { version: 0, planetId, planetName: 'Vulcan' } });
    expect((await call('admin', 'PUT', `/planet/${planetId}`, { version: 0, planetName: 'New Vulcan' })).status).to.equal(204);
    expect(await call('viewer', 'POST', '/planet/qbe', { planetName: 'w vul' })).to.deep.include({ status: 200, body: [{ version: 1, planetId, planetName: 'New Vulcan' }] });
    expect((await call('viewer', 'POST', '/planet/qbe', { planetName: 'Vulcan', version: 0 })).status).to.equal(204);
    expect((await call('admin', 'DELETE', `/planet/${planetId}`)).status).to.equal(204);
    expect(await call('viewer', 'GET', `/planet/${planetId}`)).to.deep.include({ status: 404, body: { general: 'The record does not exist.' } });
  });

  it('when a planet breaks the rules, then its own messages, access rules and XML root answer', async () => {
    expect(await call('admin', 'POST', '/planet', { planetName: '' }, { 'Accept-Language': 'de' }))
      .to.deep.include({ status: 400, body: { planetName: { message: 'Der Planet braucht einen Namen.', key: 'planet.name.required' } } });
    expect(await call('alice', 'POST', '/planet', { planetName: 'Qo\'noS' })).to.deep.include({ status: 403, body: { general: 'You are not allowed to do this.' } });
    const created = await call('admin', 'POST', '/planet', { planetName: 'Bajor' });
    const planetId = Number(created.headers.get('location')!.split('/').pop());
    expect((await call('viewer', 'GET', `/planet/${planetId}`, undefined, { Accept: 'text/xml' })).body)
      .to.equal(`${declaration}<planet><version>0</version><planetId>${planetId}</planetId><planetName>Bajor</planetName></planet>`);
  });
});
