// A read by id beside clients that count (`Prefer: count=exact` on the whole collection): its latency alone and
// beside COUNT_CLIENTS counting connections (autocannon on core 1), in interleaved rounds; the server on core 0.
// Prints p50 and p99 of the reads and the counting clients' own rate. Asserts nothing.
// Run: `npm run bench:count` (PGlite) or with DATABASE_URL (a scratch database made there and dropped after).
// Settings: COUNT_ROWS (500000), COUNT_CLIENTS (20), COUNT_SECONDS per round (10), COUNT_ROUNDS (2).
import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { startServer } from './processes.ts';
import { prepareDatabase } from './seed.ts';
import { passwordToken } from './tokens.ts';
import { load, percentile } from './load.ts';

const rows = Number(process.env.COUNT_ROWS ?? 500_000);
const clients = Number(process.env.COUNT_CLIENTS ?? 20);
const seconds = Number(process.env.COUNT_SECONDS ?? 10);
const rounds = Number(process.env.COUNT_ROUNDS ?? 2);
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

const db = await prepareDatabase(rows, []);
const service = await startServer('service', 'src/server.ts',
  { PORT: '0', HOST: '127.0.0.1', ...db.serviceEnv, DEMO_DATA: 'false', RATE_LIMIT_PER_MINUTE: '10000000' }, '0');
try {
  const headers = { Authorization: `Bearer ${await passwordToken(`${service.url}/realms/sighting`, 'alice')}` };
  /** Reads by id one after the other for the round's length; their latencies. */
  const reads = async (): Promise<number[]> => {
    const times: number[] = [];
    for (const ends = performance.now() + seconds * 1000; performance.now() < ends;) {
      const started = performance.now();
      const response = await fetch(`${service.url}/api/sighting/-1`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET by id answered ${response.status}`);
      times.push(performance.now() - started);
      await delay(20);
    }
    return times;
  };
  const alone: number[] = [];
  const beside: number[] = [];
  const counted: number[] = [];
  console.log(`read by id beside ${clients} counting ` +
    `clients, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${rows} rows, ${rounds} rounds of ${seconds} s, ` +
    `node ${process.version}\n`);
  for (let round = 0; round < rounds; round++) {
    alone.push(...await reads());
    const [times, counting] = await Promise.all([reads(), load(service, { method: 'GET', path: '/api/sighting?limit=50',
      headers: { Prefer: 'count=exact' }, connections: clients }, headers, seconds, '1')]);
    beside.push(...times);
    counted.push(counting.reqPerSec);
  }
  const line = (name: string, times: number[]) =>
    console.log(`${name.padEnd(28)} p50 ${percentile(times, 0.5).toFixed(1)} ms, ` +
      `p99 ${percentile(times, 0.99).toFixed(1)} ms, max ${percentile(times, 1).toFixed(1)} ms ` +
        `(${times.length} reads)`);
  line('GET /sighting/-1 alone', alone);
  line(`GET /sighting/-1 beside ${clients}`, beside);
  console.log(`counting clients: ${percentile(counted, 0.5).toFixed(1)} counted pages/s; ` +
    `ratio of p99 beside / alone ${(percentile(beside, 0.99) / percentile(alone, 0.99)).toFixed(1)}×`);
} finally {
  await service.stop();
  await db.drop();
}
