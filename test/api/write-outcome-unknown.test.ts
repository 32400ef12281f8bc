// A write whose connection breaks after it was sent may have been stored: its 503 says so (`error.outcomeUnknown`),
// so a client retries with its Idempotency-Key instead of storing it twice; a write that never reached the database
// keeps the plain 503 (`error.unavailable`), and then nothing was stored.
import { expect } from 'chai';
import pg from 'pg';
import { backend, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting } from '../support/fixtures.ts';
import type { ScratchDatabase } from '../support/scratch-database.ts';
import { serviceBehindProxy, type ProxiedService, type TcpProxy } from '../support/tcp-proxy.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';
import { poolConnections } from '../support/scrape.ts';

const outcomeUnknown = { general: 'The connection to the database broke while the change was being written: it may ' +
  'have been stored. Repeat a create with the same Idempotency-Key, or read the record before you repeat a change.' };
const unavailable = { general: 'The database is not available; please try again later.' };

describe('a write whose outcome is unknown', function () {
  let proxied: ProxiedService | undefined;
  let proxy: TcpProxy;
  let scratch: ScratchDatabase;
  let service: TestService;
  let locker: pg.Client | undefined;

  before(async function () {
    // PGlite lives inside the process: no connection of its can break.
    if (backend !== 'postgresql') return this.skip();
    // The statement waits on a lock for as long as the test holds it: no bound of the service's may end it first.
    proxied = await serviceBehindProxy({ DB_STATEMENT_TIMEOUT_MS: '600000', DB_CONNECT_TIMEOUT_MS: '2000',
      DB_ACQUIRE_TIMEOUT_MS: '5000' });
    ({ proxy, scratch, service } = proxied);
    await tokenFor(service.realm, 'alice');
  });

  after(async () => {
    await locker?.end().catch(() => {});
    await proxied?.close();
  });

  const stored = async (memo: string) => (await query<{ count: number }>(scratch.url,
    'select count(*)::int as count from sighting where sighting_memo = $1', [memo]))[0]!.count;

  async function answer(response: Promise<Response>) {
    const done = await response;
    return { status: done.status, retryAfter: done.headers.get('Retry-After'), body: await done.json() as unknown };
  }

  it('when the connection breaks while a create waits on the database, then the 503 says it may have been stored, ' +
    'and it was', async () => {
    locker = new pg.Client({ connectionString: scratch.url });
    await locker.connect();
    await locker.query('begin');
    // A create's INSERT needs ROW EXCLUSIVE, which SHARE holds off.
    await locker.query('lock table sighting in share mode');
    const sighting = buildSighting();
    const create = answer(rawRequest(service, 'POST', '/sighting', { body: JSON.stringify(sighting),
      headers: { 'Content-Type': 'application/json' } }));
    const name = new URL(scratch.url).pathname.slice(1);
    // The create's statement has reached the server and waits there on the lock.
    await eventually(async () => (await query<{ count: number }>(scratch.url, 'select count(*)::int as count ' +
      "from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and query ilike '%insert into%'",
    [name]))[0]!.count === 1, { what: "the create's statement waiting on the lock" });

    await proxy.cut();
    expect(await create).to.deep.equal({ status: 503, retryAfter: '5', body: outcomeUnknown });
    // The server still holds the statement: once the lock goes, it runs to its commit.
    await locker.query('rollback');
    await eventually(async () => await stored(sighting.sightingMemo!) === 1,
      { what: 'the create stored although its answer was lost' });
  });

  it('when a create cannot reach the database at all, then the 503 says it is not available, ' +
    'and nothing was stored', async () => {
    await proxy.cut();
    // The pool has let go of the connections the cut broke: the create must open a new one, which is refused.
    await eventually(async () => (await poolConnections(service.url)).idle === 0, { what: 'the pool emptied' });
    const sighting = buildSighting();
    const refused = await answer(rawRequest(service, 'POST', '/sighting', { body: JSON.stringify(sighting),
      headers: { 'Content-Type': 'application/json' } }));
    await proxy.restore();
    expect(refused).to.deep.equal({ status: 503, retryAfter: '5', body: unavailable });
    expect(await stored(sighting.sightingMemo!)).to.equal(0);
  });
});
