// What a write waits for in PostgreSQL: creates at BENCH_CONNECTIONS (16) against the service and the floor in turn,
// each server on core 0 and the load on core 1 as in `npm run bench`, while this process samples the wait events of
// the scratch database's client backends in pg_stat_activity every 20 ms. It prints each round's req/s, CPU per
// request of the server and of PostgreSQL, and the six most frequent states (`wait_event_type:wait_event:state`,
// `cpu` where a backend waits for nothing). Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run
// bench:waits` (BENCH_ROWS 1000000, BENCH_ROUNDS 3, BENCH_DURATION 5).
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { prepareDatabase } from './seed.ts';
import { startServer } from './processes.ts';
import { load, type LoadRequest } from './load.ts';
import { passwordToken } from './tokens.ts';

const [serverCore, loadCore] = ['0', '1'];
execFileSync('taskset', ['-cp', loadCore, String(process.pid)], { stdio: 'ignore' });
const db = await prepareDatabase(Number(process.env.BENCH_ROWS ?? 1_000_000), []);
const common = { PORT: '0', HOST: '127.0.0.1', DB_POOL_MAX: '10' };
const service =
  await startServer('service', 'src/server.ts', { ...common, ...db.serviceEnv, DEMO_DATA: 'false' }, serverCore);
const issuer = `${service.url}/realms/sighting`;
const floor = await startServer('floor', 'bench/floor-server.ts',
  { ...common, ...db.floorEnv, ISSUER: issuer, AUDIENCE: 'sighting-api' }, serverCore);
const headers = { Authorization: `Bearer ${await passwordToken(issuer, 'alice')}`, 'Content-Type': 'application/json' };
const body = JSON.stringify({ sightingMemo: 'benchmark', vessel: { vesselId: -1 }, sightingTimezone: 'Europe/Berlin',
  sightingDate: '2026-11-22T21:30' });
const request: LoadRequest =
  { method: 'POST', path: '/api/sighting', body, connections: Number(process.env.BENCH_CONNECTIONS ?? 16) };
const url = db.serviceEnv.DATABASE_URL!;
const sampler = new pg.Client({ connectionString: url });
await sampler.connect();

/** Samples the other client backends of the database until `done` settles: how often each state was seen. */
async function waitsWhile(done: Promise<unknown>): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let running = true;
  const stop = () => { running = false; };
  done.then(stop, stop);
  while (running) {
    const { rows } = await sampler.query<{ state: string }>(
      `select coalesce(wait_event_type, '-') || ':' || coalesce(wait_event, 'cpu') || ':' || state as state
      from pg_stat_activity where datname = current_database() and backend_type = 'client backend'
      and pid <> pg_backend_pid()
      and application_name <> 'sighting-registry listen'`);
    for (const { state } of rows) seen.set(state, (seen.get(state) ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return seen;
}

try {
  for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 3); round++) {
    for (const server of round % 2 ? [floor, service] : [service, floor]) {
      const loading = load(server, request, headers, Number(process.env.BENCH_DURATION ?? 5), loadCore);
      const seen = await waitsWhile(loading);
      const result = await loading;
      const states =
        [...seen].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([state, count]) => `${state} ${count}`).join(', ');
      console.log(`${server.name.padEnd(8)} ${result.reqPerSec.toFixed(0).padStart(5)} req/s, `
        + `CPU ms/req ${result.cpuPerRequestMs.toFixed(3)}, `
        + `PostgreSQL ${result.databaseCpuPerRequestMs.toFixed(3)}; ${states}`);
    }
  }
} finally {
  await sampler.end();
  await service.stop();
  await floor.stop();
  await db.drop();
}
