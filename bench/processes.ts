// Starts the two servers as processes pinned to one core, and reads their CPU time and memory from /proc.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { openInspector } from './inspector.ts';

export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** The file its standard output goes to. */
  output: string;
  /** The bytes it has allocated on the V8 heap so far (bench/allocation-counter.ts). */
  allocated(): Promise<number>;
  stop(): Promise<void>;
}

const allocationCounter = fileURLToPath(new URL('./allocation-counter.ts', import.meta.url));

// Each server's standard output goes to a file, not to a pipe this process reads: this process runs on the load
// generator's core, and a pipe it reads late fills, after which the server's log lines wait for it. Measured so, the
// service answered GET by id at 1,000 a second for 0.34 ms of CPU each, at 4,000 for 0.24 ms with a file.
const outputs = mkdtempSync(join(tmpdir(), 'bench-servers-'));
process.once('exit', () => rmSync(outputs, { recursive: true, force: true }));

/**
 * Runs `node script` on `core` (taskset) and waits for the line announcing its URL; `nodeFlags` go before the script
 * (node refuses some, `--trace-gc-nvp` among them, in NODE_OPTIONS), `launcher` before node (valgrind and its options).
 * Each server counts the bytes it allocates: a count of work that holds where the machine's swings move CPU times by a
 * fifth (docs/benchmarks.md).
 */
export async function startServer(name: string, script: string, env: Record<string, string | undefined>,
  core: string, nodeFlags: readonly string[] = [], launcher: readonly string[] = []): Promise<ServerProcess> {
  // The service runs as `npm start` runs it, with V8's collection at hand (src/feed/memory-after-peaks.ts).
  // BENCH_CPU_PROF=<dir>: each server's CPU profile written there when it stops, named by the server (node refuses
  // the flags in NODE_OPTIONS).
  const profile = process.env.BENCH_CPU_PROF;
  const flags = [...nodeFlags, ...script.endsWith('src/server.ts') ? ['--expose-gc'] : [], ...profile ? ['--cpu-prof',
    `--cpu-prof-dir=${profile}`, `--cpu-prof-name=${name.replace(/\W+/g, '-')}.${Date.now()}.cpuprofile`,
    '--cpu-prof-interval=250'] : []];
  const output = join(outputs, `${name.replace(/\W+/g, '-')}.${Date.now()}.log`);
  const report = `${output}.allocated`;
  const outputFd = openSync(output, 'w');
  const child = spawn('taskset',
    ['-c', core, ...launcher, process.execPath, '--import', allocationCounter, ...flags, script],
    { env: { ...process.env, ...env, ALLOCATION_REPORT: report }, stdio: ['ignore', outputFd, 'inherit'] });
  closeSync(outputFd);
  // Never leave a server behind, whatever ends the benchmark.
  process.once('exit', () => child.kill('SIGKILL'));
  const url = await listeningUrl(name, child, output);
  let reports = 0;
  return {
    name, url, child, output,
    async allocated() {
      child.kill('SIGUSR2');
      reports++;
      for (;;) {
        const [, count, bytes] = /^ALLOCATED (\d+) (\d+)\n$/.exec(readIfThere(report)) ?? [];
        if (Number(count) === reports) return Number(bytes);
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
        await delay(10);
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** A file's text, or nothing while it is not there yet. */
function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The URL the server's output announces, once it does. */
async function listeningUrl(name: string, child: ChildProcess, output: string): Promise<string> {
  for (;;) {
    const out = readFileSync(output, 'utf8');
    const match = /listening on (http:\/\/[^\s/]+)/.exec(out);
    if (match) return match[1]!.replace('localhost', '127.0.0.1');
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${out}`);
    await delay(50);
  }
}

/** User plus system CPU time of a process so far, in milliseconds (/proc/PID/stat fields 14 and 15, in clock ticks). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time so far of PostgreSQL on this machine, in milliseconds: every live `postgres` process (backends, WAL writer,
 * checkpointer …) and the backends that have exited, which the postmaster has reaped (its children's time, fields 16
 * and 17). The benchmark's server is local, and nothing else uses it while a round runs. 0 when there is none.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const pid of postgresPids()) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
      // Gone since the listing: the postmaster counts it among its children now.
    }
  }
  return total;
}

/** The pids of every live `postgres` process of this machine (the postmaster, its backends and helpers). */
function postgresPids(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
}

/**
 * BENCH_PIN_POSTGRES=true: the local PostgreSQL's processes run on `core` (the load generator's) while the benchmark
 * runs, so the servers' core runs the server measured and nothing else: unpinned, the database's backends took turns
 * on it, and the server's CPU per request moved by up to half from one round to the next. New backends inherit the
 * postmaster's affinity. Every process is put back on every core when the benchmark exits; a no-op unless asked for
 * (it changes the machine's own server, for as long as the benchmark runs).
 */
export function pinPostgres(core: string): void {
  if (process.env.BENCH_PIN_POSTGRES !== 'true') return;
  const taskset = (cores: string, pid: number) => {
    try {
      execFileSync('taskset', ['-pc', cores, String(pid)], { stdio: 'ignore' });
    } catch {
      // Gone since the listing.
    }
  };
  // Every core of the machine (this process is pinned, so its own available parallelism is one).
  const everyCore = `0-${cpus().length - 1}`;
  for (const pid of postgresPids()) taskset(core, pid);
  process.once('exit', () => { for (const pid of postgresPids()) taskset(everyCore, pid); });
}

/** Resident set size in bytes (/proc/PID/statm, second field, in 4 KiB pages); 0 once the process is gone. */
export function rssBytes(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
}

/** A port free now, for a server's inspector (`--inspect=127.0.0.1:<port>` in its NODE_OPTIONS). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  return port;
}

/**
 * Has the process whose inspector listens on `port` run a full collection (the inspector's
 * `HeapProfiler.collectGarbage`), and waits until it has: what it holds afterwards is live, not garbage awaiting one.
 */
export async function collectGarbage(port: number): Promise<void> {
  const inspector = await openInspector(port);
  await inspector.call('HeapProfiler.collectGarbage');
  inspector.close();
}
