// The change feed under many subscribers, measured side by side with the floor (bench/floor-server.ts: each create
// written to the streams it holds as soon as it is inserted, the least work that delivers it): each server's memory
// per open stream, and how long a create takes to reach every stream (from sending the create to the last stream's
// event), creates sent to the two servers in turn. Prints figures, asserts nothing.
// Run: `npm run bench:feed` (PGlite) or with DATABASE_URL (a scratch database made there and dropped after).
// Memory is read after a first round of FEED_WARM_UP (200) streams opened and closed, and after each server (through
// its inspector) has collected its garbage, and once the streams are open both as it stands and after a collection.
// Settings: FEED_STREAMS (1000), FEED_CREATES (30), FEED_SETTLE_SECONDS (60: how long memory is read after the peak),
// FEED_CHURN_CLIENTS (80) and FEED_CHURN_SECONDS (10): opens under churn against a cap of 50 (bench/stream-churn.ts).
// The servers run on core 0, this process on core 1.
import { execFileSync } from 'node:child_process';
import { request, type ClientRequest } from 'node:http';
import { collectGarbage, freePort, startServer, rssBytes, type ServerProcess } from './processes.ts';
import { prepareDatabase } from './seed.ts';
import { passwordToken } from './tokens.ts';
import { streamChurn } from './stream-churn.ts';

const streams = Number(process.env.FEED_STREAMS ?? 1000);
const creates = Number(process.env.FEED_CREATES ?? 30);
const settleSeconds = Number(process.env.FEED_SETTLE_SECONDS ?? 60);
const warmUp = Number(process.env.FEED_WARM_UP ?? 200);
const [churnClients, churnSeconds] =
  [Number(process.env.FEED_CHURN_CLIENTS ?? 80), Number(process.env.FEED_CHURN_SECONDS ?? 10)];
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

const db = await prepareDatabase(0, []);
const common = { PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '1000000' };
// Each server's inspector, to have it collect its garbage before its memory is read.
const inspectors = [await freePort(), await freePort()] as const;
const service = await startServer('service', 'src/server.ts', { ...common, ...db.serviceEnv, DEMO_DATA: 'false',
  NODE_OPTIONS: `--inspect=127.0.0.1:${inspectors[0]}`,
  EVENTS_MAX_SUBSCRIBERS: String(streams + warmUp), EVENTS_MAX_SUBSCRIBERS_PER_CALLER: String(streams + warmUp) }, '0');
const issuer = `${service.url}/realms/sighting`;
const floor = await startServer('floor', 'bench/floor-server.ts',
  { ...common, ...db.floorEnv, ISSUER: issuer, AUDIENCE: 'sighting-api',
    NODE_OPTIONS: `--inspect=127.0.0.1:${inspectors[1]}` }, '0');
const servers = [service, floor];
const inspector = new Map<ServerProcess, number>([[service, inspectors[0]], [floor, inspectors[1]]]);
const token = await passwordToken(issuer, 'alice');
const open = new Map<ServerProcess, ClientRequest[]>(servers.map((server) => [server, []]));
/** Per server and record id: how many streams have read its `created` event, and when the last of them did. */
const seen = new Map<ServerProcess, Map<number, { streams: number; lastAt: number }>>(servers.map((server) =>
  [server, new Map()]));

try {
  console.log(`change feed, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, node ${process.version}\n`);
  // The floor's stream is a bare node:http answer held open: what a stream costs with nothing of the service's.
  const perStream = new Map<ServerProcess, { standing: number; held: number }>();
  for (const server of servers) {
    // A first round opens and closes streams: the code their path compiles is then counted before, not per stream.
    await Promise.all(Array.from({ length: warmUp }, () => subscribe(server)));
    for (const stream of open.get(server)!.splice(0)) stream.destroy();
    await collectGarbage(inspector.get(server)!);
    const before = await settledRss(server);
    await Promise.all(Array.from({ length: streams }, () => subscribe(server)));
    const standing = await settledRss(server);
    // What the streams hold, without the garbage their opening left: how much is left uncollected a while after a
    // burst of requests depends on when V8 next collects, and the service's requests leave more than the floor's.
    await collectGarbage(inspector.get(server)!);
    const held = await settledRss(server);
    const kib = (after: number) => (after - before) / streams / 1024;
    perStream.set(server, { standing: kib(standing), held: kib(held) });
    console.log(`${server.name.padEnd(7)} ${streams} open streams: RSS ${mib(before)} → ${mib(standing)} MiB, `
      + `${kib(standing).toFixed(1)} KiB per stream; after a full collection ${mib(held)} MiB, `
      + `${kib(held).toFixed(1)} KiB per stream`);
  }
  const memoryRatio = (of: 'standing' | 'held') =>
    (perStream.get(service)![of] / perStream.get(floor)![of]).toFixed(2);
  console.log(`memory per stream, service / bare node:http (the floor): ${memoryRatio('held')}× after a full `
    + `collection (${memoryRatio('standing')}× as it stood before it)`);

  const delivery = new Map<ServerProcess, number[]>(servers.map((server) => [server, []]));
  for (let i = 0; i < creates; i++) {
    // A/B, then B/A: neither server always goes first.
    for (const server of i % 2 ? [floor, service] : [service, floor])
      delivery.get(server)!.push(await deliver(server, i));
  }
  const at = (times: number[], q: number) =>
    [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  console.log(`\na create reaching all ${streams} streams (${creates} creates per server, one at a time), `
    + `from sending it:`);
  for (const server of servers) {
    const times = delivery.get(server)!;
    console.log(`${server.name.padEnd(7)} p50 ${at(times, 0.5).toFixed(0)} ms, p90 ${at(times, 0.9).toFixed(0)} ms, `
      + `p99 ${at(times, 0.99).toFixed(0)} ms, max ${at(times, 1).toFixed(0)} ms`);
  }
  const ratio = (q: number) => (at(delivery.get(service)!, q) / at(delivery.get(floor)!, q)).toFixed(2);
  console.log(`ratio service / floor: p50 ${ratio(0.5)}×, p99 ${ratio(0.99)}×`);

  // After the peak: every stream closed, what each server gives back once it has settled.
  console.log(`\nafter the peak (all ${streams} streams closed):`);
  for (const server of servers) {
    const peak = rssBytes(server.child.pid!);
    for (const stream of open.get(server)!.splice(0)) stream.destroy();
    for (let waited = 0; waited < settleSeconds; waited += 10) {
      const after = await settledRss(server);
      console.log(`${server.name.padEnd(7)} +${waited + 10} s: `
        + `RSS ${mib(peak)} → ${mib(after)} MiB${server === service ? `; ${await heapOf(server)}` : ''}`);
    }
  }

  // Opens under churn: more clients than the cap, connecting and leaving; against the same clients below the cap.
  const capped = await startServer('service, cap 50', 'src/server.ts', { ...common, ...db.serviceEnv, DEMO_DATA: 'true',
    EVENTS_MAX_SUBSCRIBERS: '50', EVENTS_MAX_SUBSCRIBERS_PER_CALLER: '100' }, '0');
  try {
    const cappedToken = await passwordToken(`${capped.url}/realms/sighting`, 'alice');
    console.log(`\nopens under churn (cap 50, each stream held 0.1–1 s, a create every 50 ms, ${churnSeconds} s each), `
      + `time to headers of admitted opens:`);
    for (const resume of [false, true]) {
      for (const clients of [churnClients, 40]) {
        const churn = await streamChurn(capped, cappedToken, clients, churnSeconds, resume);
        console.log(`${String(clients).padStart(3)} clients${resume ? ', resuming with Last-Event-ID' : ''}: `
          + `p50 ${churn.p50.toFixed(0)} ms, p90 ${churn.p90.toFixed(0)} ms, `
          + `p99 ${churn.p99.toFixed(0)} ms; ${churn.opened} opened, ${churn.refused} refused (503)`);
      }
    }
  } finally {
    await capped.stop();
  }
} finally {
  for (const stream of [...open.values()].flat()) stream.destroy();
  for (const server of servers) await server.stop();
  await db.drop();
}

/** Sends one create and waits until every stream on that server has read its event. */
async function deliver(server: ServerProcess, i: number): Promise<number> {
  const sent = performance.now();
  const answer = await fetch(`${server.url}/api/sighting`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ sightingMemo: `feed capacity ${i}`, vessel: { vesselId: -1 } }),
  });
  if (answer.status !== 201) throw new Error(`${server.name}: create answered ${answer.status}`);
  const id = Number(answer.headers.get('Location')!.split('/').pop());
  const counts = seen.get(server)!;
  while ((counts.get(id)?.streams ?? 0) < streams) await new Promise((resolve) => setTimeout(resolve, 1));
  return counts.get(id)!.lastAt - sent;
}

/** The smallest of ten readings a second apart: start-up's and garbage's peaks left out. */
async function settledRss(server: ServerProcess): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    readings.push(rssBytes(server.child.pid!));
  }
  return Math.min(...readings);
}

/** Opens one stream and counts, per record id, the streams that have read its `created` event. */
function subscribe(server: ServerProcess): Promise<void> {
  const counts = seen.get(server)!;
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/sighting/events`,
      { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${server.name}: stream answered ${res.statusCode}`));
      resolve();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          if (!data || !/^event: created$/m.test(event)) continue;
          const id = (JSON.parse(data) as { id: number }).id;
          const entry = counts.get(id) ?? { streams: 0, lastAt: 0 };
          counts.set(id, { streams: entry.streams + 1, lastAt: performance.now() });
        }
      });
    });
    req.on('error', reject);
    req.end();
    open.get(server)!.push(req);
  });
}

/** The service's V8 heap (reserved and used) and memory outside it, from its own metrics (prom-client's defaults). */
async function heapOf(server: ServerProcess): Promise<string> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return `V8 heap ${mib(value('nodejs_heap_size_total_bytes'))} MiB `
    + `reserved, ${mib(value('nodejs_heap_size_used_bytes'))} used; `
    + `outside it (buffers) ${mib(value('nodejs_external_memory_bytes'))} MiB`;
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
