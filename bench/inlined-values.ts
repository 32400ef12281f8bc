// What MikroORM's inlined values cost a write: the service's create statement (a sighting and its history entry) sent
// four ways to one PostgreSQL backend, with the CPU time of that backend (/proc, the server is local) and of this
// process per statement. MikroORM 7.2.1's `execute(sql, params)` writes the values into the text (upstream
// mikro-orm/mikro-orm#8001); its `getKysely()` sends them as bound parameters of an unnamed statement, which PostgreSQL
// still parses and plans each time; a named statement is parsed once per connection: as the service sends it
// (src/db/named-statements.ts, through the pool of MikroORM's `getNativeClient()`) and with a plain `pg` client.
// Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:inlined` (BENCH_STATEMENTS, 3000).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { CompiledQuery } from 'kysely';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { loadConfig } from '../src/config/config.ts';
import { openServiceDatabase } from '../src/lifecycle/service-database.ts';
import { ReadRouting } from '../src/db/read-routing.ts';
import { createLogger } from '../src/observability/logger.ts';
import sighting from '../src/resources/sighting.resource.ts';
import { rowValues } from '../src/crud/write/row-values.ts';
import { insertStatement } from '../src/crud/write/row-statements.ts';
import { runNamed } from '../src/db/named-statements.ts';
import { createScratchDatabase } from '../test/support/scratch-database.ts';

const times = Number(process.env.BENCH_STATEMENTS ?? 3000);
const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
const config = loadConfig({ DATABASE_URL: scratch.url, DEMO_DATA: 'true', LOG_LEVEL: 'warn', DB_POOL_MAX: '1' });
const orm = await openServiceDatabase(config, { logger: createLogger(config), readRouting: new ReadRouting(0, 0) });
const client = new pg.Client({ connectionString: scratch.url });
await client.connect();

/** User plus system CPU milliseconds of a process so far (/proc/PID/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function cost(backendPid: number,
  call: (i: number) => Promise<unknown>): Promise<{ server: number; client: number; wall: number }> {
  for (let i = 0; i < 200; i++) await call(i);
  const [server, own, started] = [cpuMs(backendPid), process.cpuUsage(), performance.now()];
  for (let i = 0; i < times; i++) await call(i);
  const used = process.cpuUsage(own);
  return { server: (cpuMs(backendPid) - server) / times, client: (used.user + used.system) / 1000 / times,
    wall: (performance.now() - started) / times };
}

try {
  const em = orm.em.fork() as SqlEntityManager;
  const data = { ...sighting.values({ sightingMemo: 'inlined or bound', vessel: { vesselId: -1 },
    sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30' }), creator: 'bench' };
  const { columns, values } = rowValues(em, sighting, data);
  const statement = insertStatement(em, sighting, columns);
  const { sql, text: numbered } = statement;
  const params = (i: number) => [`${values[0]} ${i}`, ...values.slice(1), 'sighting', 'bench'];
  const ormPid = ((await em.execute('select pg_backend_pid() as "pid"')) as Array<{ pid: number }>)[0]!.pid;
  const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as "pid"')).rows[0]!.pid;
  const kysely = em.getKysely();
  const results = {
    'MikroORM execute (values inlined)': await cost(ormPid, (i) => em.execute(sql, params(i))),
    'MikroORM getKysely (bound, unnamed)': await cost(ormPid,
      (i) => kysely.executeQuery(CompiledQuery.raw(numbered, params(i)))),
    'named, as the service sends it (runNamed)': await cost(ormPid, (i) => runNamed(em, statement, params(i))),
    'pg named prepared statement (plain pg)': await cost(clientPid,
      (i) => client.query({ name: 'create-sighting', text: numbered, values: params(i) })),
  };
  console.log(`create statement (${sql.length} characters with placeholders), ${times} times each, one backend; ` +
    `CPU ms per statement`);
  console.log(
    `${'sent as'.padEnd(38)} ${'backend CPU'.padStart(12)} ${'client CPU'.padStart(11)} ${'wall'.padStart(8)}`);
  for (const [name, { server, client: own, wall }] of Object.entries(results)) {
    console.log(`${name.padEnd(38)} ${server.toFixed(3).padStart(12)} ${own.toFixed(3).padStart(11)} ` +
      `${wall.toFixed(3).padStart(8)}`);
  }
  // PostgreSQL's own figure for the plan alone (EXPLAIN's Planning Time, the statement rolled back).
  await client.query('begin');
  const plan = await client.query(`explain (analyze, summary) ${em.getPlatform().formatQuery(sql, params(0))}`);
  await client.query('rollback');
  console.log(plan.rows.map((row: Record<string, string>) => Object.values(row)[0] ?? '')
    .filter((line) => /Planning|Execution/.test(line)).join('\n'));
} finally {
  await client.end();
  await orm.close(true);
  await scratch.drop();
}
