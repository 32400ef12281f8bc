// Measures the service in-process over loopback and prints figures: reads, creates, a streamed list, query by example.
// Run: `npm run bench` (PGlite) or `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench`.
import { performance } from 'node:perf_hooks';
import { startService } from '../test/support/service.ts';
import { tokenFor } from '../test/support/tokens.ts';

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 2_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const service = await startService({ DEMO_DATA: 'true' });
const auth = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
const json = { ...auth, 'Content-Type': 'application/json' };
console.log(`backend: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, node ${process.version}, ${requests} requests at concurrency ${concurrency}, ${rows} rows`);

/** Runs `count` calls, `concurrency` at a time, and prints throughput and latency percentiles. */
async function load(name: string, call: () => Promise<Response>, count = requests): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < count) {
      const t = performance.now();
      const response = await call();
      await response.arrayBuffer();
      if (response.status >= 400) throw new Error(`${name}: ${response.status}`);
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(`${name.padEnd(34)} ${(count / seconds).toFixed(0).padStart(6)} req/s   p50 ${p(0.5)} ms   p95 ${p(0.95)} ms   p99 ${p(0.99)} ms`);
}

await load('GET /sighting/-1', () => fetch(`${service.api}/sighting/-1`, { headers: auth }));
await load('POST /sighting', () => fetch(`${service.api}/sighting`, {
  method: 'POST', headers: json, body: JSON.stringify({ sightingMemo: 'benchmark', vessel: { vesselId: -1 }, sightingTimezone: 'Europe/Berlin' }),
}));

// Bulk rows straight into the database: the point is reading them back, not the insert path.
await service.web.orm.em.fork().getConnection().execute(`insert into sighting (sighting_memo, vessel_id, sighting_timezone, sighting_date)
  select 'memo ' || g || case when g % 10000 = 0 then ' needle' else '' end, -1, 'Europe/Berlin', timestamp '2026-01-01' + g * interval '1 minute'
  from generate_series(1, ${rows}) g`);
await service.web.orm.em.fork().getConnection().execute('analyze sighting');

// Live heap after a full collection, sampled while the list streams: what the process really holds, unlike RSS,
// which grows with however lazily V8 collects.
const liveHeap = () => { global.gc?.(); return process.memoryUsage().heapUsed; };
const heapBefore = liveHeap();
let heapPeak = heapBefore;
const sampler = setInterval(() => { heapPeak = Math.max(heapPeak, liveHeap()); }, 200);
let started = performance.now();
const list = await fetch(`${service.api}/sighting`, { headers: auth });
let bytes = 0;
for await (const chunk of list.body!) bytes += chunk.length;
clearInterval(sampler);
console.log(`GET /sighting (whole list)          ${((performance.now() - started) / 1000).toFixed(2)} s for ${(bytes / 1e6).toFixed(1)} MB, ` +
  `${rows + requests + 1} records; live heap ${(heapBefore / 1e6).toFixed(0)} MB before, ${(heapPeak / 1e6).toFixed(0)} MB at most while streaming`);

started = performance.now();
const qbe = await fetch(`${service.api}/sighting/qbe`, { method: 'POST', headers: json, body: JSON.stringify({ sightingMemo: 'NEEDLE' }) });
const matches = (await qbe.json() as unknown[]).length;
console.log(`POST /sighting/qbe substring        ${(performance.now() - started).toFixed(1)} ms, ${matches} matches among ${rows} rows`);
await load('POST /sighting/qbe substring (load)', () => fetch(`${service.api}/sighting/qbe`, { method: 'POST', headers: json, body: JSON.stringify({ sightingMemo: 'needle' }) }), 200);

if (process.env.DATABASE_URL) {
  const plan = await service.web.orm.em.fork().getConnection().execute(`explain select * from sighting where sighting_memo ilike '%needle%'`);
  console.log('plan:', plan.map((row: Record<string, string>) => Object.values(row)[0]).join(' | '));
}
await service.stop();
