// The pool's pressure in numbers: how long statements wait for a connection, and how many gave up (PostgreSQL).
import { expect } from 'chai';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import pg from 'pg';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { samples } from '../support/scrape.ts';

describe('pool metrics (PostgreSQL)', () => {
  let service: TestService;
  let token: string;
  before(async function () {
    if (backend !== 'postgresql') return this.skip();
    // The default acquire bound (3 s): twenty reads queued on one connection stay well inside it on a busy machine.
    // A list whose reader pauses keeps its connection for the whole test (by default it would give it back after a
    // second): with a pool of one, the share of streamed reads is that one connection.
    service = await startService({ DB_POOL_MAX: '1', LOG_LEVEL: 'fatal', STREAM_IDLE_RELEASE_MS: '600000' });
    token = await tokenFor(service.realm, 'alice');
  });
  after(async () => { await service?.stop(); });
  const read = async () =>
    (await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } })).status;

  it('when 20 reads share a pool of one connection, ' +
    'then each statement\'s wait for it is observed, and some waited', async () => {
    const before = await samples(service.url, 'db_acquire_wait_seconds_count');
    const statuses = await Promise.all(Array.from({ length: 20 }, read));
    expect(statuses).to.deep.equal(Array(20).fill(200));
    const count = (await samples(service.url, 'db_acquire_wait_seconds_count')).get('')!;
    const waitedLong = (await samples(service.url, 'db_acquire_wait_seconds_bucket')).get('{le="0.0005"}')!;
    expect(count - (before.get('') ?? 0)).to.be.at.least(20);
    // Twenty at once on one connection: not all of them found it free.
    expect(count - waitedLong).to.be.above(0);
  });

  it('when the one connection is held by a list its reader stopped reading, ' +
    'then a read gives up after DB_ACQUIRE_TIMEOUT_MS with 503, counted as an acquire timeout', async () => {
    // Enough rows (about 20 MB of list) that a reader who stops reading keeps the cursor, and the connection, open.
    // Inserted beside the service, so its statement bound does not apply to the insert.
    const client = new pg.Client({ connectionString: service.web.config.DATABASE_URL });
    await client.connect();
    await client.query('insert into sighting (sighting_memo, vessel_id) ' +
      `select 'mm', -1 from generate_series(1, 200000)`).finally(() => client.end());
    const before = (await samples(service.url, 'db_acquire_timeouts_total')).get('{target="primary"}') ?? 0;
    let slow: ClientRequest | undefined;
    const held = await new Promise<IncomingMessage>((resolve) => {
      slow = request(`${service.api}/sighting`, { headers: { Authorization: `Bearer ${token}` } },
        (response) => { response.pause(); resolve(response); });
      slow.end();
    });
    expect(held.statusCode).to.equal(200);
    expect(await read()).to.equal(503);
    slow!.destroy();
    expect((await samples(service.url, 'db_acquire_timeouts_total')).get('{target="primary"}')).to.equal(before + 1);
  });
});
