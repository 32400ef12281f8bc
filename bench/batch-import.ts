// Whole data sets in: `POST /sighting/batch` of IMPORT_RECORDS sightings (100,000) against the floor, PostgreSQL's own
// bulk path for the same rows (COPY into a temporary table, then one INSERT … SELECT into the table with its history
// entries, in one transaction), and beside the same records sent as single creates over 16 connections (a sample of
// IMPORT_SINGLES, 10,000, whose rate gives the whole's time); then IMPORT_VESSELS (10,000) vessels with two names each
// in one batch. Prints figures and ratios; asserts nothing. The service runs on core 0, this process on core 1.
// Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:import` (PGlite: the service's figures
// alone, without the COPY floor).
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { prepareDatabase } from './seed.ts';
import { startServer } from './processes.ts';
import { passwordToken } from './tokens.ts';

const records = Number(process.env.IMPORT_RECORDS ?? 100_000);
const singles = Math.min(records, Number(process.env.IMPORT_SINGLES ?? 10_000));
const vessels = Number(process.env.IMPORT_VESSELS ?? 10_000);
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

const db = await prepareDatabase(0, []);
const service = await startServer('service', 'src/server.ts', { PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false',
  RATE_LIMIT_PER_MINUTE: '100000000', DB_STATEMENT_TIMEOUT_MS: '600000', ...db.serviceEnv }, '0');
const token = await passwordToken(`${service.url}/realms/sighting`, 'alice');
const adminToken = await passwordToken(`${service.url}/realms/sighting`, 'admin');
const sighting = (n: number) => ({ sightingMemo: `imported ${n} near ${(n * 7919).toString(36)}`,
  vessel: { vesselId: n % 2 ? -1 : -2 }, sightingTimezone: 'Europe/Berlin',
  sightingDate: `2026-0${1 + (n % 9)}-1${n % 10}T1${n % 10}:30` });
const seconds = (from: number) => (performance.now() - from) / 1000;

async function post(path: string, body: unknown, bearer = token): Promise<Response> {
  const response = await fetch(`${service.url}/api${path}`, { method: 'POST', body: JSON.stringify(body),
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' } });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${(await response.text()).slice(0, 300)}`);
  return response;
}

/** The floor: the same sightings through COPY and one INSERT … SELECT with their entries, in one transaction. */
async function copyFloor(url: string, rows: ReturnType<typeof sighting>[]): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    await client.query('begin');
    await client.query('create temporary table "batch_rows" ("position" int, "sighting_memo" varchar, '
      + '"vessel_id" bigint, "sighting_timezone" varchar, "sighting_date" timestamp) on commit drop');
    const lines = rows.map((row, position) => `${position}\t${row.sightingMemo}\t${row.vessel.vesselId}\t`
      + `${row.sightingTimezone}\t${row.sightingDate}\n`);
    await pipeline(Readable.from(lines), client.query(copyStreams.from('copy "batch_rows" from stdin')));
    await client.query(`with "s" as (insert into "sighting" ("sighting_memo", "vessel_id", "sighting_timezone", `
      + `"sighting_date", "creator") select "sighting_memo", "vessel_id", "sighting_timezone", "sighting_date", `
      + `'floor' from "batch_rows" order by "position" returning *) insert into "record_change" ("collection", `
      + `"record_id", `
      + `"version", "change", "changed_at", "changed_by", "scope", "row") select 'sighting', "s"."sighting_id", `
      + `"s"."version", 'created', clock_timestamp(), 'floor', jsonb_build_object('vesselId', `
      + `jsonb_build_array("s"."vessel_id")), to_jsonb("s") from "s"`);
    await client.query('commit');
    return seconds(started);
  } finally {
    await client.end();
  }
}

/** `count` single creates, 16 at a time: the time they took. */
async function singleCreates(count: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    for (let n = next++; n < count; n = next++) await post('/sighting', sighting(n));
  }));
  return seconds(started);
}

try {
  const backend = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`whole data sets in, ${backend}, node ${process.version}\n`);
  const rows = Array.from({ length: records }, (_, n) => sighting(n));
  const batchStarted = performance.now();
  const created = await (await post('/sighting/batch', rows)).json() as unknown[];
  const batch = seconds(batchStarted);
  if (created.length !== records) throw new Error(`the batch answered ${created.length} records`);
  console.log(`POST /sighting/batch, ${records} sightings: ${batch.toFixed(2)} s (${(records / batch).toFixed(0)}/s)`);
  if (process.env.DATABASE_URL) {
    const floor = await copyFloor(db.serviceEnv.DATABASE_URL!, rows);
    console.log(`floor (COPY, INSERT … SELECT with entries, one transaction): ${floor.toFixed(2)} s; `
      + `batch / floor ${(batch / floor).toFixed(2)}×`);
  }
  const single = await singleCreates(singles);
  const whole = single * records / singles;
  console.log(`single creates, 16 connections: ${singles} in ${single.toFixed(2)} s `
    + `(${(singles / single).toFixed(0)}/s), so ${records} in about ${whole.toFixed(0)} s; `
    + `batch ${(whole / batch).toFixed(1)}× faster`);

  const fleet = Array.from({ length: vessels }, (_, n) =>
    ({ vesselName: { en: `imported vessel ${n}`, de: `importiertes Schiff ${n}` } }));
  const vesselsStarted = performance.now();
  await post('/vessel/batch', fleet, adminToken);
  const vesselBatch = seconds(vesselsStarted);
  console.log(`POST /vessel/batch, ${vessels} vessels with two names each: ${vesselBatch.toFixed(2)} s `
    + `(${(vessels / vesselBatch).toFixed(0)}/s)`);
} finally {
  await service.stop();
  await db.drop();
}
