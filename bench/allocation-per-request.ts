// Bytes allocated on the V8 heap per request, the service beside the design floor (bench/design-floor.ts), for four
// of the design floor's operations: a count of work done, not a time, so it holds on a loaded machine too. Each server
// counts what it allocates (bench/allocation-counter.ts, loaded by bench/processes.ts); a fixed number of requests is
// sent to each after a warm-up.
// Prints figures, asserts nothing.
// Run: `node bench/allocation-per-request.ts` (PGlite) or with DATABASE_URL (a scratch database made there, dropped
// after). Settings: ALLOC_REQUESTS (3000 per operation and server).
import { createRequire } from 'node:module';
import { prepareDatabase } from './seed.ts';
import { startServer, type ServerProcess } from './processes.ts';
import { passwordToken } from './tokens.ts';

const requests = Number(process.env.ALLOC_REQUESTS ?? 3000);
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Promise<{ non2xx: number;
  errors: number }>;
const db = await prepareDatabase(0, ['needle']);
const common = { PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '100000000' };

const servers: ServerProcess[] = [];
try {
  const service = await startServer('service', 'src/server.ts',
    { ...common, ...db.serviceEnv, DEMO_DATA: 'false' }, '0');
  const issuer = `${service.url}/realms/sighting`;
  const designFloor = await startServer('design floor', 'bench/floor-server.ts',
    { ...common, ...db.designFloorEnv, ISSUER: issuer, AUDIENCE: 'sighting-api', FLOOR_DESIGN: 'true' }, '0');
  servers.push(service, designFloor);
  const headers = { Authorization: `Bearer ${await passwordToken(issuer, 'alice')}`,
    'Content-Type': 'application/json' };
  const create = JSON.stringify({ sightingMemo: 'allocation', vessel: { vesselId: -1 },
    sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-25T10:00' });
  const operations: [string, string, object][] = [
    ['GET /sighting/-1', '/api/sighting/-1', {}],
    ['GET /sighting?limit=50', '/api/sighting?limit=50', {}],
    ['POST /sighting/qbe rare', '/api/sighting/qbe',
      { method: 'POST', body: JSON.stringify({ sightingMemo: 'needle' }) }],
    ['POST /sighting', '/api/sighting', { method: 'POST', body: create }],
  ];
  console.log(`V8 heap allocated per request, ${requests} requests each, 8 connections, `
    + `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, node ${process.version}`);
  for (const [name, path, request] of operations) {
    const perRequest: number[] = [];
    for (const server of [service, designFloor]) {
      await autocannon({ url: server.url + path, connections: 8, amount: 300, headers, ...request });
      const before = await server.allocated();
      const result =
        await autocannon({ url: server.url + path, connections: 8, amount: requests, headers, ...request });
      if (result.non2xx || result.errors) throw new Error(`${server.name}: ${name} failed ${result.non2xx} times`);
      perRequest.push((await server.allocated() - before) / requests / 1024);
    }
    console.log(`${name.padEnd(26)} service ${perRequest[0]!.toFixed(1)} KiB, design floor `
      + `${perRequest[1]!.toFixed(1)} KiB, ratio ${(perRequest[0]! / perRequest[1]!).toFixed(2)}×`);
  }
} finally {
  for (const server of servers) await server.stop();
  await db.drop();
}
