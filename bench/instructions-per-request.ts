// Instructions per request, the service beside the design floor (bench/design-floor.ts), for the five operations of
// its table: each server runs under valgrind's callgrind, which counts the instructions the process executes, every
// thread's. A count, not a time: it does not move with what else the machine runs, where CPU times move by a fifth
// (docs/benchmarks.md). Counting is off while a server starts and warms up; then, per operation and server, a fixed
// number of requests warms the path up, and windows of a fixed number are counted, each from a heap just collected.
// Both run with V8's `--single-threaded`: the compiler's and the collector's work is then counted in the window that
// asked for it, not in whichever its helper thread ran in. What a server does idle in as long as a window (its
// timers) is measured once and taken off.
// Prints figures, asserts nothing. A count holds on a loaded machine too, but valgrind runs node some 45 times slower
// (the five operations take about half an hour) and fills a core: not beside a CI run.
// Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:instructions` (PGlite without it).
// Settings: INSTR_WARM_UP (10000 requests per operation and server: after 2000 the design floor's count still fell
// window by window), INSTR_REQUESTS (2000 a window), INSTR_WINDOWS (5; the ratio is of the servers' medians),
// BENCH_ROWS (100000), BENCH_ONLY (a regular expression over the operations' names), INSTR_DUMPS (below).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { percentile, type LoadRequest } from './load.ts';
import { fiveOperations, rareWord, userOf } from './five-operations.ts';
import { collectGarbage, freePort, type ServerProcess } from './processes.ts';
import { prepareDatabase } from './seed.ts';
import { startServiceAndDesignFloor } from './service-and-design-floor.ts';
import { requestHeaders } from './tokens.ts';
import { writeInTurn } from './sequential-writes.ts';

const warmUp = Number(process.env.INSTR_WARM_UP ?? 10_000);
const counted = Number(process.env.INSTR_REQUESTS ?? 2000);
const windows = Number(process.env.INSTR_WINDOWS ?? 5);
const only = new RegExp(process.env.BENCH_ONLY ?? '');
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Promise<{ '2xx': number;
  non2xx: number; errors: number }>;
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

// INSTR_DUMPS=<an empty folder> keeps each window's dump there, for `callgrind_annotate` (V8's builtins and runtime,
// node's C++ and the libraries by name; JavaScript the JIT compiled is not named).
const dumps = process.env.INSTR_DUMPS ?? mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
const callgrind = (name: string) => ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--dump-line=no',
  `--callgrind-out-file=${join(dumps, `${name}.out`)}`];
// Each server's inspector: to wake it and to have it collect its garbage.
const inspectors = { service: await freePort(), designFloor: await freePort() };
const db = await prepareDatabase(Number(process.env.BENCH_ROWS ?? 100_000), [rareWord]);
const { service, designFloor, issuer } = await startServiceAndDesignFloor(db, {
  env: { service: { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectors.service}`,
    // Valgrind runs the service many times slower: no statement may be cut for that.
    DB_STATEMENT_TIMEOUT_MS: '600000' },
  designFloor: { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectors.designFloor}` } },
  launcher: { service: callgrind('service'), designFloor: callgrind('designFloor') },
  nodeFlags: ['--single-threaded'] });
const servers = [service, designFloor];
const nameOf = (server: ServerProcess) => (server === service ? 'service' : 'designFloor');

/**
 * Has callgrind do `command` in the server and waits until it has. Valgrind takes the command only while one of the
 * process's threads runs, and an idle server waits in the kernel: its inspector's thread is woken by a request for its
 * version (no JavaScript runs for it), again until the command is done.
 */
async function control(server: ServerProcess, command: string): Promise<void> {
  let done = false;
  // valgrind names its control files after $HOST, which the servers run with.
  const controlled = promisify(execFile)('callgrind_control', [command, String(server.child.pid)],
    { env: { ...process.env, HOST: '127.0.0.1' } }).finally(() => { done = true; });
  while (!done) {
    await fetch(`http://127.0.0.1:${inspectors[nameOf(server)]}/json/version`, { signal: AbortSignal.timeout(30_000) })
      .then((response) => response.arrayBuffer()).catch(() => undefined);
    await Promise.race([controlled, delay(500)]);
  }
  await controlled;
}

/**
 * The instructions counted since the counters were last zeroed: dumped, and read from the dump's totals once it is
 * written (callgrind_control returns when the command is taken, the file may come after).
 */
async function dumpedTotal(server: ServerProcess): Promise<number> {
  const dumped = () => readdirSync(dumps).filter((file) => file.startsWith(`${nameOf(server)}.out.`))
    .map((file) => Number(file.split('.').at(-1))).sort((a, b) => b - a);
  const [before = 0] = dumped();
  await control(server, '--dump');
  for (const started = performance.now(); performance.now() - started < 60_000; await delay(100)) {
    const [last = 0] = dumped();
    const total = last > before
      && /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dumps, `${nameOf(server)}.out.${last}`), 'utf8'));
    if (total) return Number(total[1]);
  }
  throw new Error(`${server.name}: no new dump with totals in ${dumps} after a minute`);
}

/** Counts what the server does while `work` runs, from a heap just collected: instructions and seconds. */
async function countedWhile(server: ServerProcess, work: () => Promise<unknown>) {
  await collectGarbage(inspectors[nameOf(server)]);
  await control(server, '--instr=on');
  await control(server, '--zero');
  const started = performance.now();
  await work();
  const instructions = await dumpedTotal(server);
  const seconds = (performance.now() - started) / 1000;
  await control(server, '--instr=off');
  return { instructions, seconds };
}

/** Sends `amount` of the operation's requests: autocannon's, or writes stating their version. */
async function send(server: ServerProcess, request: LoadRequest, headers: Record<string, string>, amount: number) {
  if (request.method === 'PUT' || request.method === 'PATCH') {
    let sent = 0;
    const result = await writeInTurn({ method: request.method, template: `${server.url}${request.path}`,
      connections: request.connections, headers: { ...headers, ...request.headers }, body: request.body ?? '{}',
      more: () => sent++ < amount });
    if (result.non2xx) throw new Error(`${server.name} ${request.path}: ${result.non2xx} refused`);
    return;
  }
  const result = await autocannon({ url: server.url + request.path, method: request.method, body: request.body,
    headers: { ...headers, ...request.headers }, connections: request.connections, amount,
    // A slow answer is valgrind's, not the server's: none is given up on (autocannon's default waits 10 s).
    timeout: 600 });
  if (result.non2xx || result.errors) throw new Error(`${server.name} ${request.path}: ${result.non2xx} non-2xx, `
    + `${result.errors} errors`);
}

try {
  const idlePerSecond = new Map<ServerProcess, number>();
  for (const server of servers) {
    const idle = await countedWhile(server, () => delay(10_000));
    idlePerSecond.set(server, idle.instructions / idle.seconds);
  }
  console.log(`Instructions per request (callgrind), ${warmUp} requests of warm-up, then ${windows} windows of `
    + `${counted} counted, per operation and server; ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, node `
    + `${process.version}; idle (taken off): service ${(idlePerSecond.get(service)! / 1e6).toFixed(2)} M/s, design `
    + `floor ${(idlePerSecond.get(designFloor)! / 1e6).toFixed(2)} M/s\n`);
  const columns = ['operation'.padEnd(28), 'service (windows)'.padEnd(32), 'design floor (windows)'.padEnd(32)];
  console.log(`${columns.join(' ')} ratio`);
  const thousands = (counts: number[]) => `${counts.map((n) => (n / 1000).toFixed(0)).join(', ')} k`;
  for (const [name, request] of fiveOperations.filter(([operation]) => only.test(operation))) {
    const perRequest = new Map<ServerProcess, number[]>();
    for (const server of servers) {
      // Tokens live 300 s, less than a warm-up may take: headers asked for each window's worth of requests (a token
      // is taken again once it is a minute old).
      for (let sent = 0; sent < warmUp; sent += counted)
        await send(server, request, await requestHeaders(issuer, userOf(request)), Math.min(counted, warmUp - sent));
      const counts: number[] = [];
      for (let window = 0; window < windows; window++) {
        const headers = await requestHeaders(issuer, userOf(request));
        const { instructions, seconds } = await countedWhile(server, () => send(server, request, headers, counted));
        counts.push((instructions - idlePerSecond.get(server)! * seconds) / counted);
      }
      perRequest.set(server, counts);
    }
    const [own, floor] = servers.map((server) => percentile(perRequest.get(server)!, 0.5)) as [number, number];
    console.log(`${name.padEnd(28)} ${thousands(perRequest.get(service)!).padEnd(32)} `
      + `${thousands(perRequest.get(designFloor)!).padEnd(32)} ${(own / floor).toFixed(2)}×`);
  }
} finally {
  for (const server of servers) await server.stop();
  await db.drop();
  if (!process.env.INSTR_DUMPS) rmSync(dumps, { recursive: true, force: true });
}
