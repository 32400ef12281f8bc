// A server that checks passwords (scram-sha-256, scripts/postgres-production.sh): a password in the URL is enough, and
// it wins over PGPASSWORD.
import { expect } from 'chai';
import { backend } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { listening, spawnService } from '../support/service-process.ts';

describe('a password only in DATABASE_URL (PostgreSQL with passwords) @pgbouncer', function () {
  let scratch: ScratchDatabase;

  before(async function () {
    // Only a run whose server checks passwords gives the service's role one (PGPASSWORD).
    if (backend !== 'postgresql' || !process.env.PGPASSWORD) return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  });

  after(async () => { await scratch?.drop(); });

  it('when the password (holding `@ / : # ?`) is percent-encoded in the URLs and PGPASSWORD is wrong, ' +
    'then the URLs\' password is used: the service migrates, starts and its pool reaches the database', async () => {
    const withPassword = new URL(scratch.env.DATABASE_DIRECT_URL ?? scratch.url);
    // The URL setter percent-encodes what a URL's user part cannot hold.
    withPassword.password = process.env.PGPASSWORD!;
    const service = spawnService({ ...scratch.env, DATABASE_URL: withPassword.toString(),
      DATABASE_DIRECT_URL: withPassword.toString(), PGPASSWORD: 'not-the-password' });
    try {
      const { url } = await listening(service);
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).to.equal(200);
    } finally {
      service.child.kill('SIGINT');
      await service.exited;
    }
    expect(service.lines.filter((line) => Number(line.level) >= 50), 'no error').to.deep.equal([]);
  });
});
