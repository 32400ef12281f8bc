// A role that may only read and write rows (production's app role, scripts/postgres-production.sh) meets a database
// nobody migrated: a start that only checks says the migrations are pending and how to apply them, and `npm run
// migrate` run as that role names the setting that fixes it; neither says any part of a password.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { backend, startService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { MigrationsPending } from '../../src/db/migrate.ts';
import { shippedMigrations } from '../../src/db/migration-state.ts';

/** Every password the run's URLs and environment hold. */
function passwords(): string[] {
  const inUrls = [process.env.DATABASE_URL, process.env.DATABASE_MIGRATION_URL, process.env.DATABASE_DIRECT_URL]
    .filter((url): url is string => !!url).map((url) => decodeURIComponent(new URL(url).password));
  return [...inUrls, process.env.PGPASSWORD ?? ''].filter((password) => password.length > 0);
}

describe('the app role on a database nobody migrated @pgbouncer', function () {
  let scratch: ScratchDatabase;
  let appOnly: Record<string, string>;

  before(async function () {
    // Only a run with a schema owner apart from the service's role (DATABASE_MIGRATION_URL) has such a role.
    if (backend !== 'postgresql' || !process.env.DATABASE_MIGRATION_URL) return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    const { DATABASE_MIGRATION_URL: _owner, ...app } = scratch.env;
    appOnly = app as Record<string, string>;
  });

  after(async () => {
    await scratch?.drop();
  });

  it('when an instance starts with MIGRATE_AT_START=false, then it refuses to start saying which migrations are ' +
    'pending and to run `npm run migrate`', async () => {
    const failure = await startService({ ...appOnly, MIGRATE_AT_START: 'false', DEMO_DATA: 'false' })
      .then(async (service) => { await service.stop(); return undefined; }, (error: unknown) => error);
    expect(failure).to.be.instanceOf(MigrationsPending);
    expect((failure as Error).message)
      .to.equal(`migrations are pending (${shippedMigrations.join(', ')}): run \`npm run migrate\` first`);
  });

  it('when `npm run migrate` runs as the app role, then it exits 1 naming its setting and DATABASE_MIGRATION_URL, ' +
    'with no password in what it prints', async () => {
    const password = process.env.PGPASSWORD === undefined ? {} : { PGPASSWORD: process.env.PGPASSWORD };
    const child = spawn(process.execPath, ['src/lifecycle/migrate-command.ts'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...password, ...appOnly, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => { output += text; });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { output += text; });
    const [code] = await once(child, 'close') as [number];
    const line = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, unknown>;
    const variable = appOnly.DATABASE_DIRECT_URL ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
    expect({ code, cause: line.cause, variable: line.variable, names: /set DATABASE_MIGRATION_URL to a URL of the/
      .test(String(line.reason)), secrets: passwords().filter((secret) => output.includes(secret)) }, output)
      .to.deep.equal({ code: 1, cause: 'migration permission', variable, names: true, secrets: [] });
  });
});
