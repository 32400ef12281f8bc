// Two builds of the service side by side: this checkout against another (an earlier commit, with its own
// node_modules), each a process of its own on core 0 with a scratch database of its own, loaded by autocannon on
// core 1 in interleaved A/B rounds. Prints both figures and the ratio per operation, then the CPU per request of this
// checkout over the base for the five operations; asserts nothing.
// Run: `BASE_CHECKOUT=/path/to/other/checkout DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:compare`
// Settings: BENCH_DURATION seconds per round (10), BENCH_ROUNDS (3), BENCH_PIN_POSTGRES (true: the local PostgreSQL on
// the load generator's core while it runs, bench/processes.ts).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pinPostgres, startServer, type ServerProcess } from './processes.ts';
import { load, median, type LoadRequest, type LoadResult } from './load.ts';
import { createScratchDatabase } from '../test/support/scratch-database.ts';
import { passwordToken } from './tokens.ts';

const base = process.env.BASE_CHECKOUT;
if (!base || !process.env.DATABASE_URL)
  throw new Error('set BASE_CHECKOUT (the other checkout) and DATABASE_URL (where scratch databases are made)');
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
pinPostgres('1');

const databases =
  [await createScratchDatabase(process.env.DATABASE_URL), await createScratchDatabase(process.env.DATABASE_URL)];
const common = { PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'true', RATE_LIMIT_PER_MINUTE: '100000000' };
// Each build runs from its own folder, with its own node_modules, on the node this checkout pins.
const other =
  await startServer('base', join(base, 'src/server.ts'), { ...common, DATABASE_URL: databases[0]!.url }, '0');
const current = await startServer('this', 'src/server.ts', { ...common, DATABASE_URL: databases[1]!.url }, '0');
const servers = [other, current];
const create = JSON.stringify({ sightingMemo: 'compared', vessel: { vesselId: -1 }, sightingTimezone: 'Europe/Berlin',
  sightingDate: '2026-11-25T10:00' });
const replacement = JSON.stringify({ sightingMemo: 'replaced [<id>]', vessel: { vesselId: -2 },
  sightingTimezone: 'Asia/Tokyo', sightingDate: '2026-11-25T10:00' });
// The five operations of the design floor's table (docs/benchmarks.md): a read by id, a page, a rare word's query by
// example, a create, and a replacement stating its version (each connection on a sighting of its own, made first).
const operations: [string, LoadRequest][] = [
  ['GET /sighting/-1 c16', { method: 'GET', path: '/api/sighting/-1', connections: 16 }],
  ['GET /sighting?limit=50 c16', { method: 'GET', path: '/api/sighting?limit=50', connections: 16 }],
  ['POST /sighting/qbe rare c4', { method: 'POST', path: '/api/sighting/qbe',
    body: JSON.stringify({ sightingMemo: 'needle' }), connections: 4 }],
  ['PUT /sighting/{n} c16', { method: 'PUT', path: '/api/sighting/{n}', body: replacement, connections: 16 }],
  ['POST /sighting c16', { method: 'POST', path: '/api/sighting', body: create, connections: 16 }],
];

try {
  const tokens = new Map(await Promise.all(servers.map(async (server) =>
    [server, await passwordToken(`${server.url}/realms/sighting`, 'alice')] as const)));
  console.log(`base ${base} against this checkout, PostgreSQL, ${rounds} rounds of ${seconds} s, `
    + `node ${process.version}\n`);
  // Sightings 1 to 16 in each scratch database (its first new ids), alice's, for the replacements.
  for (const server of servers) {
    for (let n = 1; n <= 16; n++) {
      const made = await fetch(`${server.url}/api/sighting`, { method: 'POST', body: create,
        headers: { Authorization: `Bearer ${tokens.get(server)}`, 'Content-Type': 'application/json' } });
      if (made.headers.get('location') !== `/api/sighting/${n}`)
        throw new Error(`${server.name}: the seeded sighting ${n} is at ${made.headers.get('location')}`);
    }
  }
  console.log(`${'operation'.padEnd(28)} ${'base req/s'.padStart(11)} ${'this req/s'.padStart(11)}  ratio   CPU `
    + `ms/req base/this`);
  const cpu: string[] = [];
  for (const [name, request] of operations) {
    const results = new Map<ServerProcess, LoadResult[]>(servers.map((server) => [server, []]));
    for (let round = 0; round < rounds; round++) {
      for (const server of round % 2 ? [current, other] : [other, current]) {
        results.get(server)!.push(await load(server, request,
          { Authorization: `Bearer ${tokens.get(server)}`, 'Content-Type': 'application/json' }, seconds, '1'));
      }
    }
    const [b, t] = servers.map((server) => median(results.get(server)!));
    console.log(`${name.padEnd(28)} ${b!.reqPerSec.toFixed(0).padStart(11)} ${t!.reqPerSec.toFixed(0).padStart(11)}  `
      + `${(t!.reqPerSec / b!.reqPerSec).toFixed(2)}×   `
      + `${b!.cpuPerRequestMs.toFixed(2)} / ${t!.cpuPerRequestMs.toFixed(2)}`);
    cpu.push(`${name} ${(t!.cpuPerRequestMs / b!.cpuPerRequestMs).toFixed(2)}×`);
  }
  // Above 1: this checkout spends more CPU per request than the base.
  console.log(`\nCPU per request, this / base: ${cpu.join('; ')}`);
} finally {
  for (const server of servers) await server.stop();
  for (const database of databases) await database.drop();
}
