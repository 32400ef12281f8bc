// What outlives V8's young generation, per request, the service beside the design floor (bench/design-floor.ts): both
// run with `--trace-gc-nvp` pinned to core 0, each loaded in turn from core 1 with the five operations
// (bench/five-operations.ts). A request's objects are garbage once it is answered; what a young-generation collection
// still finds alive is copied, and on its second survival promoted to the old generation, where only a full
// collection frees it. Prints, per operation and server, the share of the bytes allocated that survived each young
// collection, the bytes promoted and the young collections' pause per request. Counts of work, not times (the pauses
// aside), asserting nothing.
// Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:young`
// Settings: BENCH_ONLY (a regular expression over the operations' names), BENCH_DURATION seconds of load (5),
// BENCH_ROWS (100000), BENCH_PIN_POSTGRES (bench/processes.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { prepareDatabase } from './seed.ts';
import { pinPostgres, type ServerProcess } from './processes.ts';
import { load, warmUpSeconds } from './load.ts';
import { fiveOperations, rareWord, userOf } from './five-operations.ts';
import { requestHeaders } from './tokens.ts';
import { startServiceAndDesignFloor } from './service-and-design-floor.ts';

const seconds = Number(process.env.BENCH_DURATION ?? 5);
const only = new RegExp(process.env.BENCH_ONLY ?? '');
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
if (process.env.DATABASE_URL) pinPostgres('1');

const db = await prepareDatabase(Number(process.env.BENCH_ROWS ?? 100_000), [rareWord]);
const { service, designFloor, issuer } = await startServiceAndDesignFloor(db, { nodeFlags: ['--trace-gc-nvp'] });

/** One figure of the young-generation collections (`gc=s`) in a stretch of a server's `--trace-gc-nvp` output. */
const summed = (lines: string[], field: string) =>
  lines.reduce((sum, line) => sum + Number(new RegExp(` ${field}=([\\d.]+)`).exec(line)?.[1] ?? 0), 0);

try {
  console.log(`young-generation collections per request, service / design floor, ${seconds} s of load each, `
    + `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, node ${process.version}`);
  console.log(`${'operation'.padEnd(28)} ${'survived'.padStart(15)} ${'promoted B/req'.padStart(17)}`
    + `${'pause µs/req'.padStart(17)}`);
  for (const [name, request] of fiveOperations.filter(([operation]) => only.test(operation))) {
    const headers = await requestHeaders(issuer, userOf(request));
    const figures = new Map<ServerProcess, { survived: string; promoted: string; pause: string }>();
    for (const server of [service, designFloor]) {
      await load(server, request, headers, warmUpSeconds, '1');
      const from = readFileSync(server.output, 'utf8').length;
      const result = await load(server, request, headers, seconds, '1');
      const lines = readFileSync(server.output, 'utf8').slice(from).split('\n').filter((line) => / gc=s /.test(line));
      const requests = result.reqPerSec * seconds;
      const allocated = summed(lines, 'allocated');
      figures.set(server, {
        survived: `${(100 * summed(lines, 'new_space_survived') / allocated).toFixed(1)} %`,
        promoted: (summed(lines, 'promoted') / requests).toFixed(0),
        pause: (1000 * summed(lines, 'pause') / requests).toFixed(1),
      });
    }
    const [s, d] = [figures.get(service)!, figures.get(designFloor)!];
    console.log(`${name.padEnd(28)} ${`${s.survived} / ${d.survived}`.padStart(15)} `
      + `${`${s.promoted} / ${d.promoted}`.padStart(17)}${`${s.pause} / ${d.pause}`.padStart(17)}`);
  }
} finally {
  for (const server of [service, designFloor]) await server.stop();
  await db.drop();
}
