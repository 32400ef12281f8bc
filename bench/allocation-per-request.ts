// Bytes allocated on the V8 heap per request, the service beside the design floor (bench/design-floor.ts), for four
// of the design floor's operations: a count of work done, not a time, so it holds on a loaded machine too. Each server
// counts what it allocates (bench/allocation-counter.ts); a fixed number of requests is sent to each after a warm-up.
// Prints figures, asserts nothing.
// Run: `node bench/allocation-per-request.ts` (PGlite) or with DATABASE_URL (a scratch database made there, dropped
// after). Settings: ALLOC_REQUESTS (3000 per operation and server).
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { prepareDatabase } from './seed.ts';
import { passwordToken } from './tokens.ts';

const requests = Number(process.env.ALLOC_REQUESTS ?? 3000);
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Promise<{ non2xx: number;
  errors: number }>;
const db = await prepareDatabase(0, ['needle']);
const children: ChildProcess[] = [];
process.once('exit', () => { for (const child of children) child.kill('SIGKILL'); });
const common = { PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '100000000' };

try {
  const service = await start('service', 'src/server.ts', { ...db.serviceEnv, DEMO_DATA: 'false' });
  const issuer = `${service.url}/realms/sighting`;
  const designFloor = await start('design floor', 'bench/floor-server.ts',
    { ...db.designFloorEnv, ISSUER: issuer, AUDIENCE: 'sighting-api', FLOOR_DESIGN: 'true' });
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
  for (const child of children) child.kill('SIGTERM');
  await db.drop();
}

/** Starts a server counting its allocations, and waits for its URL. */
async function start(name: string, script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--expose-gc', '--import', './bench/allocation-counter.ts', script],
    { env: { ...process.env, ...common, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let errors = '';
  child.stderr!.on('data', (data: Buffer) => { errors += data; });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${errors}`)));
    child.stdout!.on('data', (data: Buffer) => {
      out += data;
      const match = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
    });
  });
  child.stdout!.resume();
  return {
    name, url,
    /** The bytes the server has allocated so far, as its counter reports them. */
    async allocated(): Promise<number> {
      const from = errors.length;
      child.kill('SIGUSR2');
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const reported = /ALLOCATED \d+ (\d+)/.exec(errors.slice(from));
        if (reported) return Number(reported[1]);
      }
    },
  };
}
