// Readiness answers within its own bound when the database stops answering, not after the database's long bounds.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { eventually } from '../support/condition.ts';

type Ready = { status: string; components: Record<string, string> };

describe('readiness within a bound', function () {
  // Far below the database bounds set here (a minute each): a probe that waited for them fails by this timeout.
  this.timeout(20_000);
  let proxy: TcpProxy;
  let scratch: ScratchDatabase;
  let service: TestService;

  before(async function () {
    // PGlite lives inside the process: there is no network to cut.
    if (backend !== 'postgresql') return this.skip();
    const server = new URL(process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL!);
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const viaProxy = new URL(scratch.env.DATABASE_DIRECT_URL ?? scratch.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const minute = '60000';
    service = await startService({ DATABASE_URL: viaProxy.toString(), DB_POOL_MAX: '2', DB_ACQUIRE_TIMEOUT_MS: minute,
      DB_CONNECT_TIMEOUT_MS: minute, DB_STATEMENT_TIMEOUT_MS: minute });
  });

  after(async () => {
    await proxy?.restore().catch(() => {});
    await service?.stop();
    await proxy?.close();
    await scratch?.drop();
  });

  it('when the network to PostgreSQL is partitioned, then 10 probes at once are each answered 503 DOWN within the ' +
    'probe\'s bound, and 200 once it is back', async () => {
    // No probe before: there is no last answer to stand in for a late one.
    proxy.partition();
    try {
      const probes = await Promise.all(Array.from({ length: 10 }, async () => {
        const response = await fetch(`${service.url}/health/ready`);
        return { status: response.status, body: await response.json() as unknown };
      }));
      expect(probes.map(({ status, body }) =>
        ({ status, body: { status: (body as Ready).status, database: (body as Ready).components.database } })))
        .to.deep.equal(Array(10).fill({ status: 503, body: { status: 'DOWN', database: 'DOWN' } }));
    } finally {
      await proxy.restore();
    }
    expect(await eventually(async () => (await fetch(`${service.url}/health/ready`)).status === 200)).to.equal(true);
  });
});
