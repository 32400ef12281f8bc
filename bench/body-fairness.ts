// Whether large bodies starve a read by id: GET /api/sighting/-1 one after another while BENCH_CLIENTS (50) clients
// post ~63 KB bodies, on PGlite, or on PostgreSQL with DATABASE_URL (a scratch database there). Prints the read's
// p50/p99/max alone and under the posts, and the posts' rate. Run: `npm run bench:bodies` (BENCH_DURATION 10 s,
// BENCH_BODY memo | keys | deep). Figures on a shared machine are indicative only.
import { Agent, request } from 'node:http';
import pg from 'pg';
import { startServer } from './processes.ts';
import { passwordToken } from './tokens.ts';

const clients = Number(process.env.BENCH_CLIENTS ?? 50);
const durationMs = Number(process.env.BENCH_DURATION ?? 10) * 1000;
const kind = process.env.BENCH_BODY ?? 'memo';
// Just under the 64 KB limit, as a client with a token can send them: refused by the schema, after all the reading.
const bodies: Record<string, string> = {
  memo: JSON.stringify({ sightingMemo: 'x'.repeat(64_400), vessel: { vesselId: -1 } }),
  keys: JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]))),
  deep: `{"vessel":${'['.repeat(31_000)}${']'.repeat(31_000)}}`,
};
const body = bodies[kind]!;

let scratch: string | undefined;
const serverUrl = process.env.DATABASE_URL;
if (serverUrl) {
  scratch = `bench_bodies_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${scratch}"`);
  await admin.end();
}
const databaseUrl = scratch ? Object.assign(new URL(serverUrl!), { pathname: `/${scratch}` }).toString() : undefined;
const service = await startServer('service', 'src/server.ts',
  { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, DEMO_DATA: 'true' }, '0-1');
const authorization = `Bearer ${await passwordToken(`${service.url}/realms/sighting`, 'alice')}`;
const agent = new Agent({ keepAlive: true, maxSockets: clients + 1 });

function send(method: string, path: string, payload?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(`${service.url}${path}`, {
      method, agent, headers: { Authorization: authorization,
        ...(payload && { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }) },
    }, (response) => response.resume().on('end', () => resolve(response.statusCode ?? 0)));
    sent.on('error', reject).end(payload);
  });
}

/** Reads by id one after another until `until`; their durations in ms. */
async function reads(until: number): Promise<number[]> {
  const durations: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    const status = await send('GET', '/api/sighting/-1');
    if (status !== 200) throw new Error(`GET /api/sighting/-1: ${status}`);
    durations.push(performance.now() - started);
  }
  return durations;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const summary = (durations: number[]) => {
  const sorted = [...durations].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, ` +
    `max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length} reads)`;
};

try {
  const database = databaseUrl ? 'PostgreSQL' : 'PGlite';
  console.log(`${database}, ${clients} clients posting ${(Buffer.byteLength(body) / 1024).toFixed(1)} KB bodies ` +
    `(${kind}), ${durationMs / 1000} s`);
  console.log(`GET by id alone:        ${summary(await reads(performance.now() + Math.min(durationMs, 3000)))}`);
  let posts = 0;
  const statuses = new Map<number, number>();
  const until = performance.now() + durationMs;
  const posting = Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      const status = await send('POST', '/api/sighting', body);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      posts += 1;
    }
  }));
  const underLoad = await reads(until);
  await posting;
  console.log(`GET by id under posts:  ${summary(underLoad)}`);
  console.log(`posts: ${(posts / (durationMs / 1000)).toFixed(0)}/s, ` +
    `statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
} finally {
  agent.destroy();
  await service.stop();
  if (scratch) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${scratch}" with (force)`);
    await admin.end();
  }
}
