// Soak: minutes of production-like load (writers at a set rate; change-feed subscribers that come, resume and go;
// clients that abort lists half-way and clients that never read; a prober reading by id) on one or two instances
// sharing one database. Prints per minute what must not grow (pool connections in use, PostgreSQL backends, streams,
// RSS) and p99 of a read by id and of event delivery; exits 1 when one of them grows without bound, when the
// instances do not settle back to nothing held once the load stops, or on any 5xx but the documented 503s.
// Run: `npm run soak` (PGlite, one instance) or with DATABASE_URL (two instances on a scratch database made there).
// Settings: SOAK_MINUTES (10), SOAK_INSTANCES (2 on PostgreSQL, 1 on PGlite), SOAK_WRITES_PER_SECOND (40),
// SOAK_SUBSCRIBERS (24), SOAK_ROWS (50000). Every request goes to 127.0.0.1; the load stops by itself.
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { startServer, rssBytes, type ServerProcess } from './processes.ts';
import { prepareDatabase } from './seed.ts';
import { passwordToken } from './tokens.ts';
import { percentile } from './load.ts';
import { neverRead, readPartAndLeave } from '../test/support/leaving-clients.ts';
import { SoakClients } from './soak-clients.ts';

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const instances = process.env.DATABASE_URL ? Number(process.env.SOAK_INSTANCES ?? 2) : 1;
const writesPerSecond = Number(process.env.SOAK_WRITES_PER_SECOND ?? 40);
const subscribers = Number(process.env.SOAK_SUBSCRIBERS ?? 24);
const rows = Number(process.env.SOAK_ROWS ?? 50_000);
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

const db = await prepareDatabase(rows, []);
const servers: ServerProcess[] = [];
const backends = process.env.DATABASE_URL ? new pg.Client({ connectionString: db.serviceEnv.DATABASE_URL }) : undefined;
let failed = false;
try {
  for (let i = 0; i < instances; i++) {
    servers.push(await startServer(`instance ${i + 1}`, 'src/server.ts',
      { PORT: '0', HOST: '127.0.0.1', ...db.serviceEnv, MIGRATE_AT_START: 'false' }, '0'));
  }
  await backends?.connect();
  const clients = new SoakClients(servers,
    { writesPerSecond, subscribers, token: (server, user) => passwordToken(`${server.url}/realms/sighting`, user) });
  console.log(`soak: ${minutes} min, ${instances} instance(s) ` +
    `on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${writesPerSecond} creates/s, ${subscribers} ` +
    `subscribers that come and go, ${rows} sightings, node ${process.version}\n`);
  console.log('min  pool used  backends  streams  RSS MiB ' +
    '(per instance)  read-by-id p99 ms  delivery p99 ms  requests  503  429  other 5xx');

  const minutely: Array<{ rss: number; readP99: number; deliveryP99: number; backends: number }> = [];
  const ends = Date.now() + minutes * 60_000;
  const load = clients.run(ends, {
    // A list read for 64 KiB and dropped, twice a second; a list never read, every five seconds (dropped after a
    // minute).
    abort: (server, headers) => readPartAndLeave(server.url, { path: '/api/sighting', headers }, 65_536),
    neverRead: (server, headers) => neverRead(server.url, { path: '/api/sighting', headers }),
  });
  for (let minute = 1; minute <= minutes; minute++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ends - (minutes - minute) * 60_000 - Date.now())));
    const figures = await clients.minute();
    const held = await Promise.all(servers.map((server) => heldBy(server)));
    const backendCount = await countBackends();
    const rss = servers.map((server) => rssBytes(server.child.pid!) / 2 ** 20);
    minutely.push({ rss: Math.max(...rss), readP99: figures.readP99, deliveryP99: figures.deliveryP99,
      backends: backendCount });
    console.log(`${String(minute).padStart(3)}  ${String(sum(held.map(({ pool }) => pool))).padStart(9)}  ` +
      `${String(backendCount).padStart(8)}  ${String(sum(held.map(({ streams }) => streams))).padStart(7)}  ` +
      `${rss.map((mib) => mib.toFixed(0)).join(' / ').padStart(22)}  ${figures.readP99.toFixed(0).padStart(17)}  ` +
      `${figures.deliveryP99.toFixed(0).padStart(15)}  ${String(figures.requests).padStart(8)}  ` +
      `${String(figures.status503).padStart(3)}  ${String(figures.status429).padStart(3)}  ` +
      `${String(figures.other5xx).padStart(9)}`);
    if (figures.other5xx > 0) failed = true;
  }
  await load;

  // Once every client has gone, nothing may stay held.
  const settled = await settle();
  const outcome = settled
    ? 'every instance settled (no stream, no pool connection in use, no request in flight)' : 'NOT SETTLED';
  console.log(`\nafter the load: ${outcome}`);
  failed ||= !settled;
  for (const problem of growth(minutely)) {
    console.log(`grows: ${problem}`);
    failed = true;
  }
  console.log(failed ? '\nsoak FAILED' : '\nsoak passed: nothing grew without bound');
} finally {
  await backends?.end();
  for (const server of servers) await server.stop();
  await db.drop();
}
process.exit(failed ? 1 : 0);

async function heldBy(server: ServerProcess): Promise<{ pool: number; streams: number; inFlight: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    pool: value(/^db_pool_connections\{pool="primary",state="used"\} (\S+)$/m),
    streams: value(/^change_feed_streams (\S+)$/m),
    // The scrape itself is one.
    inFlight: value(/^http_requests_in_flight (\S+)$/m) - 1,
  };
}

async function countBackends(): Promise<number> {
  if (!backends) return 0;
  const { rows: [row] } = await backends.query('select count(*)::int as "count" from pg_stat_activity ' +
    'where datname = current_database() and pid <> pg_backend_pid()');
  return (row as { count: number }).count;
}

async function settle(): Promise<boolean> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const held = await Promise.all(servers.map((server) => heldBy(server)));
    if (held.every(({ pool, streams, inFlight }) => pool === 0 && streams === 0 && inFlight === 0)) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

/** What grew: the last third of the run against the first third after the first minute (warm-up). */
function growth(figures: Array<{ rss: number; readP99: number; deliveryP99: number; backends: number }>): string[] {
  if (figures.length < 4) return [];
  const third = Math.max(1, Math.floor((figures.length - 1) / 3));
  const early = figures.slice(1, 1 + third);
  const late = figures.slice(-third);
  const middle = (pick: (f: typeof figures[number]) => number, part: typeof figures) => percentile(part.map(pick), 0.5);
  const checks: Array<[string, (f: typeof figures[number]) => number, number]> = [
    ['RSS (MiB)', (f) => f.rss, 64], ['read-by-id p99 (ms)', (f) => f.readP99, 250],
    ['delivery p99 (ms)', (f) => f.deliveryP99, 250], ['backends', (f) => f.backends, 4],
  ];
  return checks.filter(([, pick, slack]) => middle(pick, late) > 1.5 * middle(pick, early) + slack)
    .map(([name, pick]) => `${name}: ${middle(pick, early).toFixed(0)} early, ${middle(pick, late).toFixed(0)} late`);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
