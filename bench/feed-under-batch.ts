// The change feed under a batch create: FEED_BATCH_RECORDS (100,000) sightings in one `POST /sighting/batch` while
// FEED_BATCH_STREAMS (10) streams follow the sighting feed and another client creates one sighting at a time at a
// steady FEED_BATCH_SINGLES_PER_SECOND (20). Prints, per stream, the batch's created events it received (all, in input
// order, or says not) and how long after the batch's answer (its commit) its last one came; the service's RSS
// before and at its peak; and the single creates' p50/p99 before the batch and while its events were delivered, with
// the ratio. Asserts nothing but prints MISSING / OUT OF ORDER where a stream falls short.
// Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:feed-batch` (a scratch database made there
// and dropped after). The service runs on core 0, this process on core 1.
import { execFileSync } from 'node:child_process';
import { request, type ClientRequest } from 'node:http';
import { prepareDatabase } from './seed.ts';
import { rssBytes, startServer } from './processes.ts';
import { passwordToken } from './tokens.ts';

const records = Number(process.env.FEED_BATCH_RECORDS ?? 100_000);
const streamCount = Number(process.env.FEED_BATCH_STREAMS ?? 10);
const singlesPerSecond = Number(process.env.FEED_BATCH_SINGLES_PER_SECOND ?? 20);
const beforeSeconds = Number(process.env.FEED_BATCH_BEFORE_SECONDS ?? 10);
if (!process.env.DATABASE_URL) {
  console.error('bench:feed-batch measures PostgreSQL: set DATABASE_URL (a scratch database is made there)');
  process.exit(1);
}
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

const db = await prepareDatabase(0, []);
const service = await startServer('service', 'src/server.ts', { PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false',
  RATE_LIMIT_PER_MINUTE: '100000000', DB_STATEMENT_TIMEOUT_MS: '600000', EVENTS_MAX_SUBSCRIBERS_PER_CALLER:
  String(streamCount + 1), ...db.serviceEnv }, '0');
const token = await passwordToken(`${service.url}/realms/sighting`, 'alice');
const auth = { Authorization: `Bearer ${token}` };
const seconds = (from: number) => (performance.now() - from) / 1000;
const sighting = (n: number) => ({ sightingMemo: `batch ${n} near ${(n * 7919).toString(36)}`,
  vessel: { vesselId: n % 2 ? -1 : -2 }, sightingTimezone: 'Europe/Berlin',
  sightingDate: `2026-0${1 + (n % 9)}-1${n % 10}T1${n % 10}:30` });

/** One follower of the sighting feed: the created events' record ids in the order they came, and when the last came. */
interface Follower {
  recordIds: number[];
  lastEventId: number;
  /** Event ids that did not grow. */
  outOfOrder: number;
  /** Times the server ended the stream and it resumed with Last-Event-ID. */
  resumed: number;
  /** When each of `recordIds` came. */
  arrivals: number[];
  request?: ClientRequest;
}

function follow(follower: Follower, lastEventId?: number): void {
  const headers = { ...auth, Accept: 'text/event-stream',
    ...(lastEventId !== undefined && { 'Last-Event-ID': String(lastEventId) }) };
  const { hostname, port } = new URL(service.url);
  follower.request = request({ hostname, port, path: '/api/sighting/events', headers }, (response) => {
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.lastIndexOf('\n\n');
      if (end < 0) return;
      for (const block of buffer.slice(0, end).split('\n\n')) {
        const id = /^id: (\d+)$/m.exec(block);
        if (!id) continue;
        const eventId = Number(id[1]);
        if (eventId <= follower.lastEventId) follower.outOfOrder += 1;
        follower.lastEventId = eventId;
        const record = /^event: created\ndata: \{"id":(\d+)/m.exec(block);
        if (record) {
          follower.recordIds.push(Number(record[1]));
          follower.arrivals.push(performance.now());
        }
      }
      buffer = buffer.slice(end + 2);
    });
    // Ended by the service (the contract allows it: a failure while it read on its own, shutdown): resume.
    response.on('end', () => {
      if (!stopping) {
        follower.resumed += 1;
        follow(follower, follower.lastEventId);
      }
    });
  });
  follower.request.on('error', () => {});
  follower.request.end();
}

/** Single creates at a steady rate, each timed, until `stop`; their latencies by start time. */
function steadyCreates(): { latencies: Array<{ at: number; ms: number }>; failures: string[]; stop(): Promise<void> } {
  const latencies: Array<{ at: number; ms: number }> = [];
  const pending = new Set<Promise<void>>();
  let n = 0;
  const result = { latencies, failures: [] as string[], stop: async () => {
    clearInterval(timer);
    await Promise.all(pending);
  } };
  const timer = setInterval(() => {
    const at = performance.now();
    const sent = fetch(`${service.url}/api/sighting`, { method: 'POST', body: JSON.stringify(sighting(records + n++)),
      headers: { ...auth, 'Content-Type': 'application/json' } }).then(async (response) => {
      await response.arrayBuffer();
      if (response.status === 201) latencies.push({ at, ms: performance.now() - at });
      else result.failures.push(String(response.status));
    }, (error: Error & { cause?: { code?: string } }) => {
      result.failures.push(`${error.message}${error.cause?.code ? ` (${error.cause.code})` : ''}`);
    }).finally(() => pending.delete(sent));
    pending.add(sent);
  }, 1000 / singlesPerSecond);
  return result;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
let stopping = false;

try {
  console.log(`change feed under a batch, PostgreSQL, node ${process.version}: ${records} sightings, `
    + `${streamCount} streams, ${singlesPerSecond} single creates/s\n`);
  const followers: Follower[] = Array.from({ length: streamCount },
    () => ({ recordIds: [], arrivals: [], lastEventId: 0, outOfOrder: 0, resumed: 0 }));
  for (const follower of followers) follow(follower);
  const body = JSON.stringify(Array.from({ length: records }, (_, n) => sighting(n)));

  const singles = steadyCreates();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, beforeSeconds * 1000));
  const rssBefore = rssBytes(service.child.pid!);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rssBytes(service.child.pid!)); }, 100);

  const batchSent = performance.now();
  const answer = await fetch(`${service.url}/api/sighting/batch`, { method: 'POST', body,
    headers: { ...auth, 'Content-Type': 'application/json' } });
  if (answer.status !== 201) {
    throw new Error(`the batch answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
  }
  const ids = (await answer.json() as Array<{ sightingId: number }>).map(({ sightingId }) => sightingId);
  const answeredAt = performance.now();
  console.log(`POST /sighting/batch: ${seconds(batchSent).toFixed(2)} s`);
  const batchIds = new Set(ids);
  const firstAt = (follower: Follower) =>
    follower.arrivals[follower.recordIds.findIndex((id) => batchIds.has(id))] ?? NaN;
  const lastAt = (follower: Follower) =>
    follower.arrivals[follower.recordIds.findLastIndex((id) => batchIds.has(id))] ?? NaN;
  const received = (follower: Follower) => follower.recordIds.filter((id) => batchIds.has(id));
  const deadline = performance.now() + 600_000;
  while (followers.some((follower) => received(follower).length < records) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const deliveredAt = Math.max(...followers.map(lastAt));
  clearInterval(sampler);
  await singles.stop();

  for (const [index, follower] of followers.entries()) {
    const got = received(follower);
    const inOrder = got.every((id, at) => id === ids[at]) && follower.outOfOrder === 0;
    console.log(`stream ${String(index + 1).padStart(2)}: ${got.length} of ${records} created events`
      + `${got.length < records ? ' MISSING' : ''}, ${inOrder ? 'in order' : 'OUT OF ORDER'}, `
      + `first ${((firstAt(follower) - answeredAt) / 1000).toFixed(2)} s, `
      + `last ${((lastAt(follower) - answeredAt) / 1000).toFixed(2)} s after the answer`
      + `${follower.resumed ? `, resumed ${follower.resumed}×` : ''}`);
  }
  console.log(`service RSS: ${mib(rssBefore)} MiB before the batch, ${mib(rssPeak)} MiB at its peak (the batch's `
    + 'own body and rows included)');
  const within = (from: number, to: number) =>
    singles.latencies.filter(({ at }) => at >= from && at < to).map(({ ms }) => ms);
  const before = within(0, batchSent);
  const [p50Before, p99Before] = [quantile(before, 0.5), quantile(before, 0.99)];
  console.log(`single creates before the batch (${before.length}): p50 ${p50Before.toFixed(1)} ms, `
    + `p99 ${p99Before.toFixed(1)} ms`);
  for (const [what, from, to] of [['while the batch was written (send to answer)', batchSent, answeredAt],
    ['while its events were delivered (answer to last event)', answeredAt, deliveredAt],
    ['from the batch\'s send to its last event delivered', batchSent, deliveredAt]] as const) {
    const during = within(from, to);
    const [p50, p99] = [quantile(during, 0.5), quantile(during, 0.99)];
    console.log(`single creates ${what} (${during.length}): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; `
      + `during / before: p50 ${(p50 / p50Before).toFixed(2)}×, p99 ${(p99 / p99Before).toFixed(2)}×`);
  }
  if (singles.failures.length) {
    console.log(`single creates FAILED: ${singles.failures.length} (${[...new Set(singles.failures)].join(', ')})`);
  }
  console.log(`(${seconds(started).toFixed(0)} s in all)`);
} finally {
  stopping = true;
  await service.stop();
  await db.drop();
}
