// A list whose database connection goes silent mid-stream is cut at the client's bound, and that connection is never
// handed out again: the requests waiting for the pool meanwhile are answered from a new one.
import { expect } from 'chai';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import pg from 'pg';
import { backend, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { eventually } from '../support/condition.ts';
import type { ScratchDatabase } from '../support/scratch-database.ts';
import { serviceBehindProxy, type ProxiedService, type TcpProxy } from '../support/tcp-proxy.ts';

describe('a list\'s connection lost mid-stream', function () {
  let proxied: ProxiedService | undefined;
  let proxy: TcpProxy;
  let scratch: ScratchDatabase;
  let service: TestService;

  before(async function () {
    // PGlite lives inside the process: there is no network to cut.
    if (backend !== 'postgresql') return this.skip();
    // One connection: the requests sent while the list holds it wait for it, and get it next. The client's bound on
    // a fetch is 1 s + 1 s; the wait for the pool outlasts it and the cancel request's bound (1 s).
    proxied = await serviceBehindProxy({ DB_POOL_MAX: '1', DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_ACQUIRE_TIMEOUT_MS: '10000' });
    ({ proxy, scratch, service } = proxied);
  });

  after(async () => {
    await proxied?.close();
  });

  it('when the connection a streamed list reads through goes silent, then the list is cut and the reads waiting ' +
    'for that connection meanwhile are all answered 200, none with "Connection terminated"', async () => {
    // Enough rows that the list needs many cursor fetches, and more bytes than the sockets buffer.
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    await db.query('insert into sighting (sighting_memo, vessel_id, creator) ' +
      `select 'streamed ' || g, -1, 'bulk' from generate_series(1, 50000) g`);
    await db.end();
    const token = await tokenFor(service.realm, 'alice');
    const answer = once(service.web.server, 'request').then(([, res]) => res as ServerResponse);
    // Uncompressed: compressed, the whole list would fit the sockets' buffers and be read before the stall.
    const response = await fetch(`${service.api}/sighting`,
      { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'identity' } });
    expect(response.status).to.equal(200);
    const reader = response.body!.getReader();
    await reader.read();
    // The client stops reading: the list waits for it, its cursor (and the pool's one connection) idle between fetches.
    const written = await answer;
    await eventually(() => written.writableNeedDrain, { within: 30_000, what: 'the list waiting for its client' });

    // Its connection goes silent; new connections still reach the database.
    proxy.stallOpen();
    const reads = Array.from({ length: 3 }, async () => {
      const read = await rawRequest(service, 'GET', '/sighting/-1', { user: 'alice' });
      return { status: read.status, body: read.status === 200 ? undefined : await read.text() };
    });
    // The client reads on: the list's next fetch gets no answer.
    let ended: 'cut' | 'complete';
    try {
      while (!(await reader.read()).done);
      ended = 'complete';
    } catch {
      ended = 'cut';
    }
    const statuses = await Promise.all(reads);
    await proxy.restore();
    expect({ ended, statuses })
      .to.deep.equal({ ended: 'cut', statuses: Array(3).fill({ status: 200, body: undefined }) });
  });
});
