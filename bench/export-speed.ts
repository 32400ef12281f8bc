// Whole data sets out: `GET /sighting` as CSV of EXPORT_ROWS (1,000,000) sightings against the floor, PostgreSQL's own
// `COPY (the list view's select) TO STDOUT (FORMAT csv)` of the same rows read by this process, and beside a page of 50
// (`?limit=50`, JSON), and the same export sorted by date (no index: its first row comes after the sort). Rounds
// (EXPORT_ROUNDS, 3) interleave them; each prints its times, and the end the medians,
// the ratio export / COPY (the goal: at most 1.5) and the export's first byte against the page (the goal: within it).
// Each round also counts CPU time per row (user + system, /proc/PID/stat): the service's and its PostgreSQL backends'
// for the export, the backend's for COPY, which a shared machine's contention stretches less than wall time.
// Asserts nothing. The service runs on core 0, this process on core 1 (when taskset is at hand).
// Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:export`; `EXPORT_ROWS=20000` for a smoke
// run; `BENCH_CPU_PROF=/tmp/prof` writes the service's CPU profile there when it stops (bench/processes.ts).
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/observability/logger.ts';
import { ReadRouting } from '../src/db/read-routing.ts';
import { openServiceDatabase } from '../src/lifecycle/service-database.ts';
import { viewQuery } from '../src/crud/view-rows.ts';
import { listOrder, orderBy } from '../src/crud/read/list-order.ts';
import sightingResource from '../src/resources/sighting.resource.ts';
import { prepareDatabase } from './seed.ts';
import { cpuMs, startServer } from './processes.ts';
import { passwordToken } from './tokens.ts';

const rows = Number(process.env.EXPORT_ROWS ?? 1_000_000);
const rounds = Number(process.env.EXPORT_ROUNDS ?? 3);
const pages = 5;
if (!process.env.DATABASE_URL) throw new Error('bench:export compares with COPY: set DATABASE_URL (PostgreSQL)');
try {
  execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  console.log('(no taskset: service and benchmark share the cores)');
}

const db = await prepareDatabase(rows, []);
const url = db.serviceEnv.DATABASE_URL!;

/** The select the service's list view runs for a whole list, as the service builds it: same columns, same order. */
async function listSelect(): Promise<string> {
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'warn' });
  const orm = await openServiceDatabase(config, { logger: createLogger(config), readRouting: new ReadRouting(0, 0) });
  try {
    const em = orm.em.fork();
    // Without Accept-Language or cookie the service answers in English: the select picks the English names.
    const qb = viewQuery(em, sightingResource, {}, 'list', 'read', 'en')
      .orderBy(orderBy(listOrder(em, sightingResource)));
    return qb.getFormattedQuery();
  } finally {
    await orm.close(true);
  }
}
const select = await listSelect();

const service = await startServer('service', 'src/server.ts', { PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false',
  RATE_LIMIT_PER_MINUTE: '100000000', DB_STATEMENT_TIMEOUT_MS: '600000', ...db.serviceEnv,
}, '0');
const token = await passwordToken(`${service.url}/realms/sighting`, 'alice');

interface Read {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  lines: number;
}

/** Counts bytes and line ends of chunks as they come; the first chunk's moment is the first byte's. */
function reading(started: number) {
  const read: Read = { firstByteMs: 0, totalMs: 0, bytes: 0, lines: 0 };
  return {
    read,
    chunk(data: Buffer) {
      if (read.bytes === 0) read.firstByteMs = performance.now() - started;
      read.bytes += data.length;
      for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) read.lines++;
    },
    end() {
      read.totalMs = performance.now() - started;
      return read;
    },
  };
}

/** `GET /api/sighting…` read to the end with node's own client (no decoding beyond bytes). */
function get(path: string, accept: string): Promise<Read & { status: number }> {
  const started = performance.now();
  const { chunk, end } = reading(started);
  return new Promise((resolve, reject) => {
    request(`${service.url}/api${path}`, { headers: { Authorization: `Bearer ${token}`, Accept: accept,
      'Accept-Encoding': 'identity' } }, (response) => {
      response.on('data', chunk);
      response.once('end', () => resolve({ ...end(), status: response.statusCode! }));
      response.once('error', reject);
    }).once('error', reject).end();
  });
}

/** CPU time so far of each PostgreSQL backend on the benchmark's database but `monitor`'s own, by process id. */
async function backendsCpuMs(monitor: pg.Client): Promise<Map<number, number>> {
  const { rows: backends } = await monitor.query<{ pid: number }>('select pid from pg_stat_activity '
    + 'where datname = current_database() and pid <> pg_backend_pid()');
  const times = new Map<number, number>();
  for (const { pid } of backends) {
    try {
      times.set(pid, cpuMs(pid));
    } catch {
      // Ended since the listing.
    }
  }
  return times;
}

/**
 * The CPU time the benchmark database's backends spent between two readings: a backend that ended in between (the
 * pool let it go) is not counted, one that started is counted in full.
 */
function backendsSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, time] of after) spent += time - (before.get(pid) ?? 0);
  return spent;
}

/** The floor: COPY of the list view's select, read to the end by this process; with its backend's CPU time. */
async function copyFloor(): Promise<Read & { backendCpuMs: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: [backend] } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const cpuBefore = cpuMs(backend!.pid);
    const started = performance.now();
    const { chunk, end } = reading(started);
    const stream = client.query(copyStreams.to(`copy (${select}) to stdout (format csv)`));
    for await (const data of stream) chunk(data as Buffer);
    const read = end();
    return { ...read, backendCpuMs: cpuMs(backend!.pid) - cpuBefore };
  } finally {
    await client.end();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;
/** CPU milliseconds over the rows, as microseconds per row. */
const perRow = (cpu: number, count: number) => `${(cpu * 1000 / count).toFixed(2)} µs/row`;
/** The rounds' range of CPU per row: on a busy machine contention only adds, so the low end is the steadier. */
const range = (values: number[], count: number) =>
  `(${(Math.min(...values) * 1000 / count).toFixed(2)}–${(Math.max(...values) * 1000 / count).toFixed(2)})`;
const monitor = new pg.Client({ connectionString: url });
await monitor.connect();

try {
  console.log(`whole data sets out, PostgreSQL, ${rows} sightings, node ${process.version}\n`);
  const exports: Read[] = [];
  const floors: Read[] = [];
  const pageTimes: number[] = [];
  const sortedExports: Read[] = [];
  const cpu = { service: [] as number[], backends: [] as number[], floor: [] as number[] };
  for (let round = 1; round <= rounds; round++) {
    // The service's CPU time besides the wall time: what contention on a shared machine stretches less.
    const [serviceBefore, backendsBefore] = [cpuMs(service.child.pid!), await backendsCpuMs(monitor)];
    const csv = await get('/sighting', 'text/csv');
    const serviceCpu = cpuMs(service.child.pid!) - serviceBefore;
    const backendsCpu = backendsSpent(backendsBefore, await backendsCpuMs(monitor));
    const floor = await copyFloor();
    // Sorted by a column without an index: PostgreSQL writes its first row only after sorting them all.
    const sorted = await get('/sighting?sort=sightingDate', 'text/csv');
    if (sorted.status !== 200 || sorted.lines !== csv.lines) {
      throw new Error(`the sorted export answered ${sorted.status} with ${sorted.lines} lines`);
    }
    sortedExports.push(sorted);
    // The same rows (the seeded ones and the demo data's), the export with its header row besides.
    if (csv.status !== 200 || csv.lines !== floor.lines + 1 || floor.lines < rows) {
      throw new Error(`the export answered ${csv.status} with ${csv.lines} lines, COPY ${floor.lines}`);
    }
    const times: number[] = [];
    for (let n = 0; n < pages; n++) {
      const page = await get('/sighting?limit=50', 'application/json');
      if (page.status !== 200) throw new Error(`a page of 50 answered ${page.status}`);
      times.push(page.totalMs);
    }
    exports.push(csv);
    floors.push(floor);
    pageTimes.push(median(times));
    cpu.service.push(serviceCpu);
    cpu.backends.push(backendsCpu);
    cpu.floor.push(floor.backendCpuMs);
    console.log(`round ${round}: export ${ms(csv.totalMs)} (first byte ${ms(csv.firstByteMs)}; sorted by date `
      + `${ms(sorted.totalMs)}, first byte ${ms(sorted.firstByteMs)}; `
      + `${(csv.bytes / 2 ** 20).toFixed(1)} MiB); COPY ${ms(floor.totalMs)} (${(floor.bytes / 2 ** 20).toFixed(1)} `
      + `MiB); page of 50 ${ms(median(times))} (median of ${pages}); CPU: the export's service ${ms(serviceCpu)} `
      + `and backends ${ms(backendsCpu)}, COPY's backend ${ms(floor.backendCpuMs)}`);
  }
  const exportMs = median(exports.map((each) => each.totalMs));
  const floorMs = median(floors.map((each) => each.totalMs));
  const firstByteMs = median(exports.map((each) => each.firstByteMs));
  const pageMs = median(pageTimes);
  console.log(`\nmedians: export ${ms(exportMs)} (${(rows / exportMs * 1000).toFixed(0)} rows/s), COPY ${ms(floorMs)}; `
    + `export / COPY ${(exportMs / floorMs).toFixed(2)}× (goal ≤ 1.5×)`);
  const sortedFirstByteMs = median(sortedExports.map((each) => each.firstByteMs));
  console.log(`first byte ${ms(firstByteMs)} (sorted by date ${ms(sortedFirstByteMs)}), page of 50 ${ms(pageMs)}; `
    + `first byte / page ${(firstByteMs / pageMs).toFixed(2)}× (sorted ${(sortedFirstByteMs / pageMs).toFixed(2)}×; `
    + 'goal ≤ 1×)');
  const [serviceCpu, backendsCpu, floorCpu] = [median(cpu.service), median(cpu.backends), median(cpu.floor)];
  console.log(`CPU per row (medians, with the rounds' range): the export's service ${perRow(serviceCpu, rows)} `
    + `${range(cpu.service, rows)} + its backends ${perRow(backendsCpu, rows)} ${range(cpu.backends, rows)}; COPY's `
    + `backend ${perRow(floorCpu, rows)} ${range(cpu.floor, rows)}; export / COPY `
    + `${((serviceCpu + backendsCpu) / floorCpu).toFixed(2)}×`);
} finally {
  await monitor.end();
  await service.stop();
  await db.drop();
}
