// A whole data set's import and the service's memory and reads: `POST /sighting/batch` of about IMPORT_MB (64) MB of
// sightings, once as a JSON array, once as JSON lines, once as CSV, once as an XML list (IMPORT_FORMATS, media types
// separated by commas, picks some). For each it samples the service's resident set (/proc/PID/status VmRSS, every
// 50 ms; a fresh service and database for each format) and prints the baseline before the import, the peak during it,
// the growth as a multiple of the body's size and the resident set IMPORT_SETTLE_MS (10,000) after the answer; from a
// steady stream of `GET /api/sighting/{id}` sent one after the other by this process, the reads' p99 on the idle
// service and during the import, and their ratio; and the service's own event-loop delay, idle and during the import
// (prom-client's monitorEventLoopDelay in /metrics, `nodejs_eventloop_lag_max_seconds` and `_p99_`, its histogram reset
// by each scrape): its maximum is the import's longest synchronous stretch, which a shared machine's other work
// lengthens only when it takes the core from the service. IMPORT_SEED (0) sightings are seeded first: PostgreSQL reads
// a table it knows as one page by a plan that visits every row the import inserted (docs/benchmarks.md). The import is
// sent by curl, so that this process's event loop times the reads alone. Asserts nothing. The service runs on core 0,
// this process and curl on core 1. Run: `npm run bench:import-memory` (PGlite),
// `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:import-memory` (PostgreSQL, COPY);
// IMPORT_READER_FIFO=1 (below) takes the reader's own scheduling out of the reads' times.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { prepareDatabase } from './seed.ts';
import { startServer } from './processes.ts';
import { passwordToken } from './tokens.ts';

const run = promisify(execFile);

const megabytes = Number(process.env.IMPORT_MB ?? 64);
const settleMs = Number(process.env.IMPORT_SETTLE_MS ?? 10_000);
const idleMs = Number(process.env.IMPORT_IDLE_MS ?? 3000);
const seeded = Number(process.env.IMPORT_SEED ?? 0);
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
// IMPORT_READER_FIFO=1: this process (the reader) runs under SCHED_FIFO (root), its children (curl, the service) as
// usual (reset on fork): the reads then do not count the reader's own wait for core 1, which PostgreSQL's import work
// shares on this 2-core machine; the service and the database's share of the reads' time stays in.
if (process.env.IMPORT_READER_FIFO) execFileSync('chrt', ['-R', '-f', '-p', '1', String(process.pid)]);

/** A service of its own for each format, on a database of its own: each import starts from the same baseline. */
async function freshService() {
  const db = await prepareDatabase(seeded, []);
  const service = await startServer('service', 'src/server.ts', { PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false',
    RATE_LIMIT_PER_MINUTE: '100000000', DB_STATEMENT_TIMEOUT_MS: '600000', REQUEST_TIMEOUT_MS: '600000',
    // The bounds raised above the body: this measures the import, not its 413.
    BATCH_MAX_RECORDS: '10000000', BATCH_MAX_BYTES: `${Math.ceil(megabytes * 1.25)}mb`, ...db.serviceEnv }, '0');
  return { service, db, pid: service.child.pid! };
}

/** A process's resident set in bytes, as the kernel counts it (kB in /proc/PID/status). */
function residentBytes(pid: number): number {
  const line = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
}

const sighting = (n: number) => ({ sightingMemo: `imported ${n} near ${(n * 7919).toString(36)}`,
  vessel: { vesselId: n % 2 ? -1 : -2 }, sightingTimezone: 'Europe/Berlin',
  sightingDate: `2026-0${1 + (n % 9)}-1${n % 10}T1${n % 10}:30:00.000` });

/** Records until the body reaches the size: the body as sent, and how many records it holds. */
function body(format: string): { text: string; records: number } {
  const target = megabytes * 1024 * 1024;
  const parts: string[] = [];
  let size = 0;
  const add = (text: string) => { parts.push(text); size += Buffer.byteLength(text); };
  if (format === 'text/csv') add('sightingMemo,vessel.vesselId,sightingTimezone,sightingDate\r\n');
  let n = 0;
  for (; size < target; n += 1) {
    const record = sighting(n);
    if (format === 'application/json') add(`${n === 0 ? '[' : ','}${JSON.stringify(record)}`);
    else if (format === 'application/x-ndjson') add(`${JSON.stringify(record)}\n`);
      else if (format === 'text/xml') {
      add(`${n === 0 ? '<collection>' : ''}<sighting><sightingMemo>${record.sightingMemo}</sightingMemo><vessel>`
        + `<vesselId>${record.vessel.vesselId}</vesselId></vessel><sightingTimezone>${record.sightingTimezone}`
        + `</sightingTimezone><sightingDate>${record.sightingDate}</sightingDate></sighting>`);
    } else {
      add(`${record.sightingMemo},${record.vessel.vesselId},${record.sightingTimezone},${record.sightingDate}\r\n`);
    }
  }
  if (format === 'application/json') add(']');
  if (format === 'text/xml') add('</collection>');
  return { text: parts.join(''), records: n };
}

/** Reads of one record one after the other until `stop` says so: each one's time in milliseconds, and the others. */
async function reads(url: string, token: string, stop: () => boolean): Promise<{ times: number[]; failed: string[] }> {
  const times: number[] = [];
  const failed: string[] = [];
  while (!stop()) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/api/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } });
      const text = await response.text();
      if (response.status !== 200) failed.push(`${response.status} ${text.slice(0, 100)}`);
    } catch (error) {
      // A kept-alive connection the service closed as it was reused: told, not fatal to the run.
      failed.push(String((error as Error).cause ?? error));
    }
    times.push(performance.now() - started);
  }
  return { times, failed };
}

/** The service's event-loop delay since the last scrape (prom-client resets its histogram at each): max and p99, ms. */
async function loopDelay(url: string): Promise<{ max: number; p99: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) * 1000;
  return { max: gauge('nodejs_eventloop_lag_max_seconds'), p99: gauge('nodejs_eventloop_lag_p99_seconds') };
}

const scratch = mkdtempSync(join(tmpdir(), 'import-memory-'));
const [bodyFile, answerFile] = [join(scratch, 'body'), join(scratch, 'answer')];
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));

/**
 * The import sent by curl, a process of its own: this process's event loop then times the reads alone, not the
 * upload of the body and the reading of its answer besides.
 */
async function postBatch(url: string, token: string, format: string, file: string): Promise<{ status: number }> {
  const { stdout } = await run('curl', ['-sS', '-o', answerFile, '-w', '%{http_code}', '-X', 'POST', '-H',
    `Authorization: Bearer ${token}`, '-H', `Content-Type: ${format}`, '-H', 'Expect:', '--data-binary', `@${file}`,
    url], { maxBuffer: 1 << 20 });
  return { status: Number(stdout) };
}

const p99 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1,
  Math.floor(times.length * 0.99))] ?? NaN;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const backend = process.env.DATABASE_URL ? 'PostgreSQL (COPY)' : 'PGlite';
console.log(`a whole data set's import: memory and reads, ${backend}, node ${process.version}, ~${megabytes} MB `
  + 'bodies\n');
const formats = process.env.IMPORT_FORMATS?.split(',') ?? ['application/json', 'application/x-ndjson', 'text/csv',
  'text/xml'];
for (const format of formats) {
  const { text, records } = body(format);
  const size = Buffer.byteLength(text);
  writeFileSync(bodyFile, text);
  const { service, db, pid } = await freshService();
  try {
    const token = await passwordToken(`${service.url}/realms/sighting`, 'alice');
    const until = (ms: number) => ((end) => () => performance.now() > end)(performance.now() + ms);
    // Warm: the first reads compile the read's statement and code paths.
    await reads(service.url, token, until(1000));
    // A scrape resets the service's delay histogram: the idle figure is of the idle reads alone.
    await loopDelay(service.url);
    const { times: idle } = await reads(service.url, token, until(idleMs));
    const idleLoop = await loopDelay(service.url);
    const baseline = residentBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => { peak = Math.max(peak, residentBytes(pid)); }, 50);
    let importing = true;
    const during = reads(service.url, token, () => !importing);
    const started = performance.now();
    const response = await postBatch(`${service.url}/api/sighting/batch`, token, format, bodyFile);
    const answer = readFileSync(answerFile, 'utf8');
    const seconds = (performance.now() - started) / 1000;
    importing = false;
    const importLoop = await loopDelay(service.url);
    const { times: busy, failed } = await during;
    clearInterval(sampler);
    peak = Math.max(peak, residentBytes(pid));
    if (response.status !== 201) throw new Error(`POST /sighting/batch: ${response.status} ${answer.slice(0, 300)}`);
    const created = (JSON.parse(answer) as unknown[]).length;
    if (created !== records) throw new Error(`the batch answered ${created} of ${records} records`);
    await sleep(settleMs);
    const after = residentBytes(pid);
    console.log(`${format}: ${records} sightings, ${mb(size)}, ${seconds.toFixed(1)} s`);
    console.log(`  RSS baseline ${mb(baseline)}, peak ${mb(peak)}: growth ${mb(peak - baseline)} = `
      + `${((peak - baseline) / size).toFixed(2)}× the body; ${settleMs / 1000} s after ${mb(after)} `
      + `(${mb(after - baseline)} above the baseline; the peak is ${((peak - after) / size).toFixed(2)}× the body `
      + 'above it: the baseline before holds garbage of the start that a collection gives back)');
    console.log(`  GET /sighting/{id} p99: idle ${p99(idle).toFixed(1)} ms (${idle.length} reads), during the import `
      + `${p99(busy).toFixed(1)} ms (${busy.length} reads): ${(p99(busy) / p99(idle)).toFixed(2)}×`
      + (failed.length ? `; ${failed.length} not 200, the first: ${failed[0]}` : ''));
    console.log(`  event-loop delay: idle max ${idleLoop.max.toFixed(1)} ms (p99 ${idleLoop.p99.toFixed(1)}), during `
      + `the import max ${importLoop.max.toFixed(1)} ms (p99 ${importLoop.p99.toFixed(1)})`);
  } finally {
    await service.stop();
    await db.drop();
  }
}
