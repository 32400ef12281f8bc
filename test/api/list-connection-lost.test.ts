// A list whose database connection goes silent mid-stream is cut at the client's bound, and that connection is never
// handed out again: the requests waiting for the pool meanwhile are answered from a new one.
import { expect } from 'chai';
import { backend, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { longListWaitingForItsClient, readToEnd, serviceBehindProxy, type ProxiedService, type TcpProxy }
  from '../support/tcp-proxy.ts';

describe('a list\'s connection lost mid-stream', function () {
  let proxied: ProxiedService | undefined;
  let proxy: TcpProxy;
  let service: TestService;

  before(async function () {
    // PGlite lives inside the process: there is no network to cut.
    if (backend !== 'postgresql') return this.skip();
    // One connection: the requests sent while the list holds it wait for it, and get it next. The client's bound on
    // a fetch is 1 s + 1 s; the wait for the pool outlasts it and the cancel request's bound (1 s).
    proxied = await serviceBehindProxy({ DB_POOL_MAX: '1', DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_ACQUIRE_TIMEOUT_MS: '10000' });
    ({ proxy, service } = proxied);
  });

  after(async () => {
    await proxied?.close();
  });

  it('when the connection a streamed list reads through goes silent, then the list is cut and the reads waiting ' +
    'for that connection meanwhile are all answered 200, none with "Connection terminated"', async () => {
    const reader = await longListWaitingForItsClient(proxied!);

    // Its connection goes silent; new connections still reach the database.
    proxy.stallOpen();
    const reads = Array.from({ length: 3 }, async () => {
      const read = await rawRequest(service, 'GET', '/sighting/-1', { user: 'alice' });
      return { status: read.status, body: read.status === 200 ? undefined : await read.text() };
    });
    // The client reads on: the list's next fetch gets no answer.
    const ended = await readToEnd(reader);
    const statuses = await Promise.all(reads);
    await proxy.restore();
    expect({ ended, statuses })
      .to.deep.equal({ ended: 'cut', statuses: Array(3).fill({ status: 200, body: undefined }) });
  });
});
