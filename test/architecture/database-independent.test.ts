// The files tagged @database-independent run once, in a process that refuses databases of their own
// (docs/testing.md#tests-that-run-once): what they import says they start none, the guard refuses each way a test
// starts one, and the scripts pick the files by the same tag.
import { expect } from 'chai';
import { globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { databaseIndependentTag, OwnDatabaseRefused, ownDatabasesSetting } from '../support/own-databases.ts';
import { sharedService, startService } from '../support/service.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { openTestDatabase } from '../support/test-database.ts';
import { spawnService } from '../support/service-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const testFiles = globSync('test/**/*.test.ts', { cwd: root }).sort();
/** A title that ends in the tag, and such a title given to a top-level describe. */
const taggedTitle = new RegExp(` ${databaseIndependentTag}['"\`]`);
const taggedDescribe = new RegExp(`^describe\\('[^']+ ${databaseIndependentTag}', `);
const tagged = testFiles.filter((file) =>
  readFileSync(`${root}/${file}`, 'utf8').split('\n').some((line) => taggedDescribe.test(line)));

/** Modules that open a database or start a service with one, and the packages that reach a database. */
const startsDatabase = [
  /\/support\/(test-database|scratch-database|service-process|bulk-insert|replication|tcp-proxy|sql)\.ts$/,
  /\/src\/(db|lifecycle)\//, /^pg$/, /^@electric-sql\/pglite/, /^@mikro-orm\//,
];

/** What a file imports at run time (type-only imports left out). */
function runtimeImports(text: string): string[] {
  return [...text.matchAll(/^import (?!type )[^;]*?from '([^']+)';/gms), ...text.matchAll(/import\('([^']+)'\)/g)]
    .map((match) => match[1]!);
}

describe('tests that run once: the database-independent files', () => {
  it('when the test files are read, then some are tagged, each in a top-level describe\'s title only and never '
    + 'beside @pgbouncer', () => {
    expect(tagged).to.include('test/clients/sdk-scenarios.test.ts');
    // Another title with the tag would bring the hooks around it into the guarded run, or leave a file half tagged.
    const elsewhere = testFiles.flatMap((file) => readFileSync(`${root}/${file}`, 'utf8').split('\n')
      .filter((line) => taggedTitle.test(line) && !taggedDescribe.test(line)).map((line) => `${file}: ${line}`));
    expect(elsewhere).to.deep.equal([]);
    // @pgbouncer says the file's claim depends on the database in front of it: the two tags contradict each other.
    expect(tagged.filter((file) => readFileSync(`${root}/${file}`, 'utf8').includes('@pgbouncer'))).to.deep.equal([]);
  });

  it('when a tagged file\'s imports are read, then none starts a database, and it starts no service but the shared '
    + 'one', () => {
    const found = tagged.flatMap((file) => {
      const text = readFileSync(`${root}/${file}`, 'utf8');
      const imports = runtimeImports(text).filter((name) => startsDatabase.some((pattern) => pattern.test(name)));
      return [...imports, ...(/\bstartService\(/.test(text) ? ['startService('] : [])].map((what) => `${file}: ${what}`);
    });
    expect(found).to.deep.equal([]);
  });

  it('when the scripts are read, then one runs the tagged files with databases of their own refused, the other the '
    + 'rest, and CI runs both', () => {
    const scripts = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts['test:database-independent'])
      .to.equal(`${ownDatabasesSetting}=refused mocha --grep ${databaseIndependentTag} 'test/**/*.test.ts'`);
    expect(scripts['test:database']).to.equal(`mocha --grep ${databaseIndependentTag} --invert 'test/**/*.test.ts'`);
    expect(scripts['test:suite']).to.include('npm run test:database-independent')
      .and.to.include('npm run test:database ');
    const ci = readFileSync(`${root}/.ci/run`, 'utf8');
    expect(ci).to.include('npm run test:database-independent').and.to.include('npm run test:database ');
  });

  describe('the guard of that run', () => {
    let before: string | undefined;
    beforeEach(() => {
      before = process.env[ownDatabasesSetting];
      process.env[ownDatabasesSetting] = 'refused';
    });
    afterEach(() => {
      if (before === undefined) delete process.env[ownDatabasesSetting];
      else process.env[ownDatabasesSetting] = before;
    });

    it('when a test starts a service, a scratch database, a test database or a service process, then each is '
      + 'refused before it starts; the shared service is not', async () => {
      const outcomes = await Promise.all([
        () => startService(), () => createScratchDatabase('postgresql://refused.invalid/none'),
        () => openTestDatabase(), () => spawnService({}),
      ].map(async (start) => {
        try {
          const started = await start();
          // A guard that let it through: what started is stopped again, and the test fails below.
          if ('child' in started) started.child.kill();
          else if ('stop' in started) await started.stop();
          else if ('drop' in started) await started.drop();
          else await started.close();
          return 'started';
        } catch (error) {
          return error instanceof OwnDatabaseRefused ? 'refused' : String(error);
        }
      }));
      expect(outcomes).to.deep.equal(['refused', 'refused', 'refused', 'refused']);
      expect((await sharedService()).url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    });
  });
});
