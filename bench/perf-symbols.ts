// Linux `perf` per symbol, the service beside the design floor: both pinned to core 0 with `--perf-basic-prof` (their
// JavaScript named in /tmp/perf-<pid>.map), each loaded in turn from core 1 with one of the five operations while
// `perf record` samples it, then the µs per request of each symbol (V8's builtins and runtime, node, the kernel, each
// JavaScript function), most different first. V8's own profiler (`npm run bench:profile`) attributes a builtin's time
// to the JavaScript that called it, and missed where the service's extra CPU goes (docs/benchmarks.md); this does not.
// Needs `perf` (linux-perf) and the right to trace the servers (root, or kernel.perf_event_paranoid ≤ 1).
// Run: `BENCH_ONLY='POST /sighting c' DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:perf`
// Settings: BENCH_ONLY (bench/five-operations.ts), BENCH_DURATION seconds of load recorded (5), BENCH_ROWS (100000),
// BENCH_PROFILE_TOP (40), BENCH_PIN_POSTGRES (bench/processes.ts).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { prepareDatabase } from './seed.ts';
import { pinPostgres, type ServerProcess } from './processes.ts';
import { load, warmUpSeconds } from './load.ts';
import { fiveOperations, rareWord, userOf } from './five-operations.ts';
import { requestHeaders } from './tokens.ts';
import { startServiceAndDesignFloor } from './service-and-design-floor.ts';
import { printSideBySide } from './side-by-side-profiles.ts';

const frequency = 4999;
const seconds = Number(process.env.BENCH_DURATION ?? 5);
const top = Number(process.env.BENCH_PROFILE_TOP ?? 40);
const only = new RegExp(process.env.BENCH_ONLY ?? '');
// perf otherwise asks debuginfod servers for each binary's symbols: minutes of waiting where none is reachable.
const perfEnv = { ...process.env, DEBUGINFOD_URLS: '' };
const records = mkdtempSync(join(tmpdir(), 'bench-perf-'));
process.once('exit', () => rmSync(records, { recursive: true, force: true }));

execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
if (process.env.DATABASE_URL) pinPostgres('1');
const db = await prepareDatabase(Number(process.env.BENCH_ROWS ?? 100_000), [rareWord]);
const { service, designFloor, issuer } = await startServiceAndDesignFloor(db, { nodeFlags: ['--perf-basic-prof'] });
try {
  for (const [name, request] of fiveOperations.filter(([operation]) => only.test(operation))) {
    const headers = await requestHeaders(issuer, userOf(request));
    const recorded = new Map<ServerProcess, { samples: Map<string, number>; requests: number }>();
    for (const server of [service, designFloor]) {
      // Not recorded: V8 compiles the operation's path while it is new.
      await load(server, request, headers, warmUpSeconds, '1');
      const file = join(records, `${server.name.replace(/\W+/g, '-')}.data`);
      const perf = spawn('perf', ['record', '-F', String(frequency), '-p', String(server.child.pid), '-o', file],
        { stdio: ['ignore', 'ignore', 'pipe'], env: perfEnv });
      await recording(perf, file);
      const result = await load(server, request, headers, seconds, '1');
      perf.kill('SIGINT');
      await once(perf, 'exit');
      recorded.set(server, { samples: symbolSamples(file), requests: result.reqPerSec * seconds });
    }
    const [s, d] = [recorded.get(service)!, recorded.get(designFloor)!];
    console.log(`\n${name}: µs of perf samples per request (${frequency} Hz), service / design floor, `
      + `${seconds} s each`);
    const microseconds = (samples: Map<string, number>) => new Map([...samples].map(([symbol, count]) =>
      [symbol, count / frequency * 1e6]));
    printSideBySide('symbol', microseconds(s.samples), microseconds(d.samples), s.requests, d.requests, top);
  }
} finally {
  await service.stop();
  await designFloor.stop();
  await db.drop();
}

/** Resolves once perf has written its recording's header, or fails with what it said if it exits first. */
async function recording(perf: ChildProcess, file: string): Promise<void> {
  let said = '';
  perf.stderr!.on('data', (data: Buffer) => { said += data; });
  while (!existsSync(file) || statSync(file).size === 0) {
    if (perf.exitCode !== null) throw new Error(`perf record exited with ${perf.exitCode}: ${said}`);
    await delay(20);
  }
}

/** Samples per symbol of a recording: JavaScript functions by name and place, the project's paths shortened. */
function symbolSamples(file: string): Map<string, number> {
  const report = execFileSync('perf', ['report', '-i', file, '--no-children', '--sort', 'sym', '-n', '-q', '-t', '|'],
    { maxBuffer: 1 << 28, env: perfEnv }).toString();
  const samples = new Map<string, number>();
  for (const line of report.split('\n')) {
    const [, count, ...symbol] = line.split('|');
    if (count === undefined || symbol.length === 0) continue;
    const name = symbol.join('|').trim().replace(/^\[[.kj]\] /, '').replace(/^JS:[*~^+']*/, '')
      .replace(/file:\/\/\/?[^ ]*?\/(src|bench)\//, '$1/').replace(/\/[^ ]*\/node_modules\//, '');
    samples.set(name, (samples.get(name) ?? 0) + Number(count.trim()));
  }
  return samples;
}
