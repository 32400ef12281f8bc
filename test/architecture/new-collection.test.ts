// docs/architecture.md's "adding a collection" and "adding a field", followed for real: in a copy of the project
// `npm run resource:create` writes a `planet` collection and `npm run resource:add-field` adds two fields to it, and
// with no hand edit after them the copy passes the whole `npm run check` and its service serves the collection's
// generic operations, the new fields among them, over HTTP in JSON and XML.
import { expect } from 'chai';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { globSync, statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { backend } from '../support/service.ts';
import { forgetTokensOf, tokenFor, type User } from '../support/tokens.ts';
import { declaration } from '../xml/xml-client.ts';

const project = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);
/**
 * What the commands, `npm run check` (its linters, type checks and layer lint) and the service read; node_modules
 * and the web page are linked. The tests and benchmarks are not copied: the commands write none of them.
 */
const copiedParts = [
  'src', 'locales', 'keycloak', 'generated', 'docs', 'tools', 'openapi.yaml', 'package.json', '.spectral.yaml',
  '.redocly.lint-ignore.yaml', 'redocly-lint.yaml', 'eslint.config.js', '.dependency-cruiser.mjs',
];
const description = ['planet', 'planetName:text(2..50)', 'mass:integer(0..)', '--read', 'reader', '--write', 'admin'];
const addedFields = [['planet', 'radius:integer(0..100000)'], ['planet', 'moonName:text(1..40)']];
/** The added fields of a planet stored without them. */
const noneAdded = { radius: null, moonName: null };

/** The copied files that `before` (the project unless said) lacks or has with other content. */
async function changedFiles(root: string, before = project): Promise<string[]> {
  const copied = globSync([...copiedParts.map((part) => `${part}/**`), ...copiedParts], { cwd: root })
    .filter((file) => statSync(join(root, file)).isFile());
  const changed = await Promise.all(copied.map(async (file) => {
    const original = await readFile(join(before, file), 'utf8').catch(() => undefined);
    return original === await readFile(join(root, file), 'utf8') ? [] : [file];
  }));
  return changed.flat().sort();
}

/** Starts the copy's `npm start` entry point; resolves with its origin once it listens. */
function startCopy(root: string, env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, ['src/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<{ origin: string; child: ChildProcess }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the copy's service exited with ${code} before it listened`)));
    // Its log: JSON lines; the one saying it listens names its URL.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const { url } = (line.startsWith('{') ? JSON.parse(line) : {}) as { url?: string };
      if (url) resolve({ origin: new URL(url).origin, child });
    });
  });
}

describe('a collection written by npm run resource:create and grown by resource:add-field in a copy of the project '
  + '@pgbouncer', () => {
  let root: string;
  let scratch: ScratchDatabase | undefined;
  let service: { origin: string; child: ChildProcess } | undefined;
  let written: string[];
  let writtenByAdding: string[];

  before(async function () {
    // Three commands (two Node processes each, one starting PGlite) and the service: a hang guard, not a duration.
    // With the other suites on the same 2 cores (load average 15) they were once cut off at 10 minutes.
    this.timeout(900_000);
    root = await mkdtemp(join(tmpdir(), 'sighting-new-collection-'));
    for (const part of copiedParts) await cp(join(project, part), join(root, part), { recursive: true });
    for (const shared of ['node_modules', 'web']) await symlink(join(project, shared), join(root, shared));
    const tsconfig = JSON.parse(await readFile(join(project, 'tsconfig.json'), 'utf8')) as object;
    const typeChecked = { ...tsconfig, include: ['src', 'generated', 'tools'] };
    await writeFile(join(root, 'tsconfig.json'), JSON.stringify(typeChecked));

    await run('npm', ['run', '--silent', 'resource:create', '--', ...description], { cwd: root });
    written = await changedFiles(root);
    // The copy as the first command left it, to tell what the second one wrote.
    const created = `${root}-created`;
    for (const part of copiedParts) await cp(join(root, part), join(created, part), { recursive: true });
    for (const added of addedFields) {
      await run('npm', ['run', '--silent', 'resource:add-field', '--', ...added], { cwd: root });
    }
    writtenByAdding = await changedFiles(root, created);
    await rm(created, { recursive: true, force: true });

    scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
    // The run's own database and provider settings stay out (an empty value is an error, not "unset").
    const own = new Set(['DATABASE_URL', 'DATABASE_DIRECT_URL', 'DATABASE_MIGRATION_URL', 'KEYCLOAK_URL', 'DATA_DIR']);
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !own.has(name)));
    service = await startCopy(root, { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...scratch?.env });
  });

  after(async function () {
    if (service?.child.exitCode === null) {
      const exited = new Promise((resolve) => service!.child.once('exit', resolve));
      service.child.kill('SIGTERM');
      await exited;
    }
    if (service) forgetTokensOf(service.origin);
    await scratch?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function call(user: User, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const token = await tokenFor(`${service!.origin}/realms/sighting`, user);
    const contentType = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    const response = await fetch(`${service!.origin}/api${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': contentType }), ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = response.headers.get('content-type')?.includes('json');
    return { status: response.status, headers: response.headers, body: text && (json ? JSON.parse(text) : text) };
  }

  async function create(planetName: string, mass: number): Promise<number> {
    const created = await call('admin', 'POST', '/planet', { planetName, mass });
    expect(created.status).to.equal(201);
    return Number(created.headers.get('location')!.split('/').pop());
  }

  it('when the whole npm run check runs on the copy, then it passes with no hand edit', async function () {
    // What the check reads (files only) is the same whichever database the run has, and it costs a minute of CPU:
    // it runs once, in the PGlite suite (docs/testing.md#tests-that-run-once).
    if (backend !== 'pglite') return this.skip();
    this.timeout(600_000);
    // As a commit's: generated types, both contract linters, both type checks, ESLint, layers.
    await run('npm', ['run', '--silent', 'check'], { cwd: root });
  });

  it('when the command has run, then it wrote the contract part, entity, descriptor, messages, migration and types, '
    + 'and nothing else', () => {
    const migration = written.find((file) => /^src\/db\/migrations\/\d+-planet\.ts$/.test(file));
    expect(migration, 'a planet migration').to.be.a('string');
    expect(written).to.deep.equal([
      'generated/openapi.ts', 'locales/de.json', 'locales/en.json', 'openapi.yaml', migration!,
      'src/db/entities/planet.entity.ts', 'src/resources/planet.resource.ts',
    ].sort());
  });

  it('when the field command has run twice, then it changed the contract, entity, descriptor, messages and types, '
    + 'and wrote a migration for each field', () => {
    const migrations = writtenByAdding.filter((file) => file.includes('/migrations/'));
    expect(migrations).to.have.length(2);
    expect(migrations[0]).to.match(/^src\/db\/migrations\/\d+-planet-radius\.ts$/);
    expect(migrations[1]).to.match(/^src\/db\/migrations\/\d+-planet-moon-name\.ts$/);
    expect(writtenByAdding).to.deep.equal([
      'generated/openapi.ts', 'locales/de.json', 'locales/en.json', 'openapi.yaml', ...migrations,
      'src/db/entities/planet.entity.ts', 'src/resources/planet.resource.ts',
    ].sort());
  });

  it('when the descriptor is read, then it declares each field once, one a line', async () => {
    const descriptor = await readFile(join(root, 'src/resources/planet.resource.ts'), 'utf8');
    expect(descriptor).to.include(`  ...fromFields([\n    versionField(),\n    idField('planetId'),\n`
      + `    field('planetName'),\n    field('mass'),\n    field('radius'),\n    field('moonName'),\n  ]),\n`);
  });

  it('when its migrations are read, then they create the planet table with the bounds of the description and add '
    + 'each field as a nullable column', async () => {
    // A long statement is written as a sum of literals within the width rule: read as the one statement it is.
    const statements = async (file: string) => (await readFile(join(root, file), 'utf8')).replace(/`\n\s+\+ `/g, '');
    const migration = await statements(written.find((file) => file.includes('migrations/'))!);
    const added = await Promise.all(writtenByAdding.filter((file) => file.includes('/migrations/')).map(statements));
    expect(added[0]).to.include('alter table "planet" add "radius" int null;');
    expect(added[1]).to.include('alter table "planet" add "moon_name" varchar(40) null;');
    expect(added[1])
      .to.include('create index "planet_moon_name_trgm" on "planet" using gin ("moon_name" gin_trgm_ops)');
    expect(migration).to.include('create table "planet" ("planet_id" bigserial primary key, '
      + '"version" int not null default 0, "planet_name" varchar(50) not null, "mass" int not null)');
    expect(migration)
      .to.include('create index "planet_planet_name_trgm" on "planet" using gin ("planet_name" gin_trgm_ops)');
  });

  it('when planets are created, listed, read, updated, patched, queried by example and deleted, then each answer is '
    + 'the generic one', async () => {
    const created = await call('admin', 'POST', '/planet/detail-view', { planetName: 'Vulcan', mass: 7 });
    const planetId = Number(created.headers.get('location')!.split('/').pop());
    expect(created).to.deep.include({ status: 201,
      body: { version: 0, planetId, planetName: 'Vulcan', mass: 7, ...noneAdded } });
    expect(created.headers.get('etag')).to.equal('"0"');
    const romulus = await create('Romulus', 9);

    expect(await call('viewer', 'GET', '/planet?planetName=Vulcan'))
      .to.deep.include({ status: 200, body: [{ planetId, planetName: 'Vulcan', mass: 7, ...noneAdded }] });
    expect((await call('viewer', 'GET', '/planet?sort=-mass&limit=1')).body)
      .to.have.nested.property('[0].planetName', 'Romulus');
    expect(await call('viewer', 'GET', '/planet/detail-view?mass=7'))
      .to.deep.include({ status: 200, body: [{ version: 0, planetId, planetName: 'Vulcan', mass: 7, ...noneAdded }] });
    expect(await call('viewer', 'GET', `/planet/${planetId}`))
      .to.deep.include({ status: 200, body: { version: 0, planetId, planetName: 'Vulcan', mass: 7, ...noneAdded } });
    const replacement = { version: 0, planetName: 'New Vulcan', mass: 7 };
    expect((await call('admin', 'PUT', `/planet/${planetId}`, replacement)).status).to.equal(204);
    const asked = { 'If-Match': '"1"', Prefer: 'return=representation' };
    expect(await call('admin', 'PATCH', `/planet/${planetId}`, { mass: 8 }, asked))
      .to.deep.include({ status: 200,
        body: { version: 2, planetId, planetName: 'New Vulcan', mass: 8, ...noneAdded } });
    expect(await call('viewer', 'POST', '/planet/qbe', { planetName: 'w vul' }))
      .to.deep.include({ status: 200,
        body: [{ version: 2, planetId, planetName: 'New Vulcan', mass: 8, ...noneAdded }] });
    expect((await call('viewer', 'POST', '/planet/qbe', { planetName: 'Vulcan', version: 0 })).status).to.equal(204);
    // The export formats: CSV with the view's columns, JSON lines (one line here, so one JSON value).
    expect(await call('viewer', 'POST', '/planet/qbe', { planetName: 'w vul' }, { Accept: 'text/csv' }))
      .to.deep.include({ status: 200,
        body: `version,planetId,planetName,mass,radius,moonName\r\n2,${planetId},New Vulcan,8,,\r\n` });
    expect(await call('viewer', 'GET', '/planet?planetName=Romulus', undefined, { Accept: 'application/x-ndjson' }))
      .to.deep.include({ status: 200, body: { planetId: romulus, planetName: 'Romulus', mass: 9, ...noneAdded } });
    expect((await call('admin', 'DELETE', `/planet/${planetId}`)).status).to.equal(204);
    expect(await call('viewer', 'GET', `/planet/${planetId}`))
      .to.deep.include({ status: 404, body: { general: 'The record does not exist.' } });
  });

  it('when a planet has been changed, then its history lists each change newest first, and the deprecated version read '
    + 'is not offered', async () => {
    const planetId = await create('Bajor', 3);
    await call('admin', 'PUT', `/planet/${planetId}`, { version: 0, planetName: 'Bajor', mass: 4 });
    await call('admin', 'DELETE', `/planet/${planetId}`);
    const history = await call('admin', 'GET', `/planet/${planetId}/versions`);
    expect(history.status).to.equal(200);
    const entries = history.body as Array<{ change: string; version: number; record: unknown }>;
    expect(entries.map(({ change, version, record }) => ({ change, version, record }))).to.deep.equal([
      { change: 'deleted', version: 1, record: null },
      { change: 'updated', version: 1, record: { version: 1, planetId, planetName: 'Bajor', mass: 4, ...noneAdded } },
      { change: 'created', version: 0, record: { version: 0, planetId, planetName: 'Bajor', mass: 3, ...noneAdded } },
    ]);
    expect((await call('viewer', 'GET', `/planet/${planetId}/versions/0`)).status).to.equal(404);
  });

  it('when a planet breaks the rules, then its own messages, access rules and XML root answer', async () => {
    const german = { 'Accept-Language': 'de' };
    expect(await call('admin', 'POST', '/planet', { planetName: 'X', mass: 1 }, german)).to.deep.include({
      status: 400,
      body: {
        planetName: { message: 'Das Feld „planetName“ muss 2 bis 50 Zeichen lang sein.',
          key: 'planet.planetName.length' },
      },
    });
    expect(await call('admin', 'POST', '/planet', { planetName: 'Vulcan', mass: -1 })).to.deep.include({
      status: 400,
      body: { mass: { message: 'The mass must be a whole number from 0 to 2147483647.', key: 'planet.mass.range' } },
    });
    expect(await call('admin', 'POST', '/planet', { mass: 1 })).to.deep.include({
      status: 400,
      body: { planetName: { message: 'The planet needs its planet name.', key: 'planet.planetName.required' } },
    });
    expect(await call('alice', 'POST', '/planet', { planetName: 'Qo\'noS', mass: 1 }))
      .to.deep.include({ status: 403, body: { general: 'You are not allowed to do this.' } });
    const planetId = await create('Cardassia', 5);
    expect((await call('viewer', 'GET', `/planet/${planetId}`, undefined, { Accept: 'text/xml' })).body).to.equal(
      `${declaration}<planet xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><version>0</version>`
      + `<planetId>${planetId}</planetId><planetName>Cardassia</planetName><mass>5</mass><radius xsi:nil="true"/>`
      + `<moonName xsi:nil="true"/></planet>`,
    );
  });

  it('when the added fields are written and read in JSON and XML, then each keeps its value, filters, sorts, and '
    + 'answers its own messages', async () => {
    const created = await call('admin', 'POST', '/planet/detail-view',
      { planetName: 'Risa', mass: 2, radius: 6000, moonName: 'Risa I' });
    const planetId = Number(created.headers.get('location')!.split('/').pop());
    expect(created).to.deep.include({ status: 201,
      body: { version: 0, planetId, planetName: 'Risa', mass: 2, radius: 6000, moonName: 'Risa I' } });
    await create('Ferenginar', 4);

    const replaced = await fetch(`${service!.origin}/api/planet/${planetId}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${await tokenFor(`${service!.origin}/realms/sighting`, 'admin')}`,
        'Content-Type': 'text/xml', Accept: 'text/xml', Prefer: 'return=representation' },
      body: '<planet><version>0</version><planetName>Risa</planetName><mass>2</mass><radius>6100</radius>'
        + '<moonName>Risa II</moonName></planet>',
    });
    expect(replaced.status).to.equal(200);
    expect(await replaced.text()).to.equal(`${declaration}<planet><version>1</version><planetId>${planetId}</planetId>`
      + '<planetName>Risa</planetName><mass>2</mass><radius>6100</radius><moonName>Risa II</moonName></planet>');

    expect(await call('viewer', 'GET', '/planet?radius=6100'))
      .to.deep.include({ status: 200, body: [{ planetId, planetName: 'Risa', mass: 2, radius: 6100,
        moonName: 'Risa II' }] });
    expect((await call('viewer', 'GET', '/planet?sort=-radius,planetId&limit=1')).body)
      .to.have.nested.property('[0].planetId', planetId);
    expect(await call('viewer', 'POST', '/planet/qbe', { moonName: 'sa ii' }))
      .to.have.nested.property('body[0].radius', 6100);
    // Left out of a replacement, an optional field is cleared; a merge patch changes it alone.
    expect(await call('admin', 'PUT', `/planet/${planetId}`, { version: 1, planetName: 'Risa', mass: 2 },
      { Prefer: 'return=representation' })).to.deep.include({ status: 200,
      body: { version: 2, planetId, planetName: 'Risa', mass: 2, ...noneAdded } });
    expect(await call('admin', 'PATCH', `/planet/${planetId}`, { radius: 7 },
      { 'If-Match': '"2"', Prefer: 'return=representation' })).to.have.nested.property('body.radius', 7);

    expect(await call('admin', 'POST', '/planet', { planetName: 'Vulcan', mass: 1, radius: 100001 },
      { 'Accept-Language': 'de' })).to.deep.include({ status: 400, body: { radius: {
      message: 'Das Feld „radius“ muss eine ganze Zahl von 0 bis 100000 sein.', key: 'planet.radius.range' } } });
    expect(await call('admin', 'POST', '/planet', { planetName: 'Vulcan', mass: 1, moonName: '' })).to.deep.include({
      status: 400,
      body: { moonName: { message: 'The moon name must have 1 to 40 characters.', key: 'planet.moonName.length' } } });
  });
});
