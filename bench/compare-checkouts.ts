// Two builds of the service side by side: this checkout against another (an earlier commit, with its own
// node_modules), each a process of its own on core 0 with a scratch database of its own, prepared and seeded as
// `npm run bench` prepares its own (bench/seed.ts: the service starts with no migration to run, as an instance
// usually restarts), loaded by autocannon on core 1 in interleaved A/B rounds. Prints both figures and the ratio per
// operation, then the CPU and the bytes allocated per request of this checkout over the base; asserts nothing.
// Run: `BASE_CHECKOUT=/path/to/other/checkout DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:compare`
// Settings: BENCH_DURATION seconds per round (10), BENCH_ROUNDS (3), BENCH_ROWS (100000), BENCH_ONLY (a regular
// expression over the operations' names), BENCH_PIN_POSTGRES (true: the local PostgreSQL on the load generator's core
// while it runs, bench/processes.ts).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pinPostgres, startServer, type ServerProcess } from './processes.ts';
import { cpuRatioByRound, formatBytes, formatRatio, load, median, warmUpSeconds, type LoadResult } from './load.ts';
import { fiveOperations, rareWord, userOf } from './five-operations.ts';
import { prepareDatabase } from './seed.ts';
import { requestHeaders } from './tokens.ts';

const base = process.env.BASE_CHECKOUT;
if (!base || !process.env.DATABASE_URL)
  throw new Error('set BASE_CHECKOUT (the other checkout) and DATABASE_URL (where scratch databases are made)');
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const only = new RegExp(process.env.BENCH_ONLY ?? '');
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
pinPostgres('1');

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const databases = [await prepareDatabase(rows, [rareWord]), await prepareDatabase(rows, [rareWord])];
const common = { PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false' };
// Each build runs from its own folder, with its own node_modules, on the node this checkout pins.
const other = await startServer('base', join(base, 'src/server.ts'), { ...common, ...databases[0]!.serviceEnv }, '0');
const current = await startServer('this', 'src/server.ts', { ...common, ...databases[1]!.serviceEnv }, '0');
const servers = [other, current];
try {
  console.log(`base ${base} against this checkout, PostgreSQL, ${rows} rows, ${rounds} rounds of ${seconds} s, `
    + `node ${process.version}\n`);
  console.log(`${'operation'.padEnd(28)} ${'base req/s'.padStart(11)} ${'this req/s'.padStart(11)}  ratio   CPU `
    + `ms/req base/this`);
  const cpu: string[] = [];
  const bytes: string[] = [];
  for (const [name, request] of fiveOperations.filter(([operation]) => only.test(operation))) {
    const results = new Map<ServerProcess, LoadResult[]>(servers.map((server) => [server, []]));
    const headersFor = (server: ServerProcess) => requestHeaders(`${server.url}/realms/sighting`, userOf(request));
    // A round of each, not counted (bench/load.ts, `warmUpSeconds`).
    for (const server of servers) await load(server, request, await headersFor(server), warmUpSeconds, '1');
    for (let round = 0; round < rounds; round++) {
      for (const server of round % 2 ? [current, other] : [other, current]) {
        results.get(server)!.push(await load(server, request, await headersFor(server), seconds, '1'));
      }
    }
    const [b, t] = servers.map((server) => median(results.get(server)!));
    console.log(`${name.padEnd(28)} ${b!.reqPerSec.toFixed(0).padStart(11)} ${t!.reqPerSec.toFixed(0).padStart(11)}  `
      + `${(t!.reqPerSec / b!.reqPerSec).toFixed(2)}×   `
      + `${b!.cpuPerRequestMs.toFixed(2)} / ${t!.cpuPerRequestMs.toFixed(2)}`);
    cpu.push(`${name} ${formatRatio(cpuRatioByRound(results.get(current)!, results.get(other)!))}`);
    bytes.push(`${name} ${formatBytes(t!, b!)}`);
  }
  // Above 1: this checkout spends more CPU per request than the base.
  console.log(`\nCPU per request, this / base, the median of the rounds' ratios: ${cpu.join('; ')}`);
  // A count of work: it moves with what a change adds or takes away, not with the machine.
  console.log(`bytes allocated per request, this / base: ${bytes.join('; ')}`);
} finally {
  for (const server of servers) await server.stop();
  for (const database of databases) await database.drop();
}
