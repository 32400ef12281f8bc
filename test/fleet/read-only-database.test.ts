// A write that reaches a server in read-only mode (a standby being promoted during a failover, bench/failover.sh)
// is the contract's 503 with Retry-After, never a 500.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting } from '../support/fixtures.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';

describe('a write to a read-only server @pgbouncer', function () {
  let scratch: ScratchDatabase;
  let service: TestService;

  before(async function () {
    if (backend !== 'postgresql') return this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    service = await startService({ ...scratch.env, DB_POOL_MAX: '1' });
  });

  after(async () => {
    await service?.stop();
    await scratch?.drop();
  });

  it('when every new session is read-only, then a create is 503 with Retry-After, and reads still answer', async () => {
    const direct = scratch.env.DATABASE_DIRECT_URL ?? scratch.url;
    const name = new URL(direct).pathname.slice(1);
    // What a standby's sessions are: read-only. The service's sessions end, so its next ones start read-only.
    // As the database's owner (the schema owner's URL where the run has one apart from the service's role).
    const owner = scratch.env.DATABASE_MIGRATION_URL ?? direct;
    await query(owner, `alter database "${name}" set default_transaction_read_only = on`);
    await query(owner,
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    expect(await eventually(async () => (await rawRequest(service, 'GET', '/sighting/-1')).status === 200))
      .to.equal(true);
    const response = await rawRequest(service, 'POST', '/sighting',
      { body: JSON.stringify(buildSighting()), headers: { 'Content-Type': 'application/json' } });
    expect({ status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() })
      .to.deep.equal({ status: 503, retryAfter: '5',
        body: { general: 'The database is not available; please try again later.' } });
  });
});
