// Loads one server from a separate autocannon process pinned to the other core, and measures the server's CPU.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { cpuMs, postgresCpuMs, type ServerProcess } from './processes.ts';

const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const sequentialWrites = `${import.meta.dirname}/sequential-writes.ts`;

/**
 * Seconds each server is loaded with an operation before it is measured (BENCH_WARM_UP, 10): V8 compiles an
 * operation's path while it is new, and until it has, the path's objects outlived young-generation collections (a
 * page of 50 after 2 s of warm-up: 3.6 % of its allocations survived each one, after 12 s 0.6 %; `npm run
 * bench:young`). Without it the first operation measured paid for it in the service (GET by id at 16 connections 2.44×
 * the design floor, at 64 after it 1.49×).
 */
export const warmUpSeconds = Number(process.env.BENCH_WARM_UP ?? 10);

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** For PATCH and PUT, `{n}` names a record per connection (1, 2, …). */
  path: string;
  body?: string;
  /** Besides the token's: a merge patch's content type, `If-Match`. */
  headers?: Record<string, string>;
  connections: number;
}

export interface LoadResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  cpuPerRequestMs: number;
  /** PostgreSQL's CPU time (all its processes) per answered request: the database's share of the work. */
  databaseCpuPerRequestMs: number;
  /** Bytes the server allocated on the V8 heap per answered request: a count of its work, steadier than its CPU. */
  bytesPerRequest: number;
}

/** Loads `server` for `seconds` from `core`: as fast as it answers, or at BENCH_RATE requests a second in all. */
export async function load(server: ServerProcess, request: LoadRequest, headers: Record<string, string>,
  seconds: number, core: string): Promise<LoadResult> {
  const paced = process.env.BENCH_RATE ? [process.env.BENCH_RATE] : [];
  const args = request.method === 'PATCH' || request.method === 'PUT'
    // A write states the version it changes: one after the other on each record, each with the ETag of the last.
    ? ['-c', core, process.execPath, sequentialWrites, request.method, `${server.url}${request.path}`,
      String(request.connections), String(seconds), JSON.stringify({ ...headers, ...request.headers }),
      request.body ?? '{}', ...paced]
    : autocannonArgs(server, request, headers, seconds, core, paced);
  const allocatedBefore = await server.allocated();
  const [cpuBefore, databaseBefore] = [cpuMs(server.child.pid!), postgresCpuMs()];
  const { stdout } = await promisify(execFile)('taskset', args, { maxBuffer: 1 << 24 });
  const [cpu, database] = [cpuMs(server.child.pid!) - cpuBefore, postgresCpuMs() - databaseBefore];
  const allocated = await server.allocated() - allocatedBefore;
  const result = JSON.parse(stdout) as { '2xx': number; non2xx: number; errors: number; duration: number;
    latency: { p50: number; p99: number } };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(
    `${server.name} ${request.method} ${request.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const answered = Math.max(1, result['2xx']);
  return { reqPerSec: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99,
    cpuPerRequestMs: cpu / answered, databaseCpuPerRequestMs: database / answered,
    bytesPerRequest: allocated / answered };
}

function autocannonArgs(server: ServerProcess, request: LoadRequest, headers: Record<string, string>, seconds: number,
  core: string, paced: string[]): string[] {
  const args = ['-c', core, process.execPath, autocannon, '--json', '-d', String(seconds), '-c',
    String(request.connections), '-m', request.method];
  for (const [name, value] of Object.entries({ ...headers, ...request.headers })) args.push('-H', `${name}=${value}`);
  if (request.body) args.push('-b', request.body);
  if (paced.length) args.push('-R', ...paced);
  // autocannon replaces each `[<id>]` with a fresh random id: a request that changes something every time.
  if (request.body?.includes('[<id>]')) args.push('-I');
  args.push(`${server.url}${request.path}`);
  return args;
}

/** The per-figure median of rounds of one server (each figure's own middle value). */
export function median(results: LoadResult[]): LoadResult {
  const mid = (pick: (r: LoadResult) => number) => percentile(results.map(pick), 0.5);
  return { reqPerSec: mid((r) => r.reqPerSec), p50: mid((r) => r.p50), p99: mid((r) => r.p99),
    cpuPerRequestMs: mid((r) => r.cpuPerRequestMs), databaseCpuPerRequestMs: mid((r) => r.databaseCpuPerRequestMs),
    bytesPerRequest: mid((r) => r.bytesPerRequest) };
}

/** A ratio's middle value over rounds, with its least and greatest. */
export interface RoundRatio {
  median: number;
  low: number;
  high: number;
}

/**
 * CPU per request of `a` over `b`, round by round, then the middle of those ratios. The two were loaded in turn in each
 * round, so a drift of the shared machine between rounds (another process, a slower core) moves both sides of a
 * round's ratio, where it moves a ratio of each side's own median by all of it.
 */
export function cpuRatioByRound(a: LoadResult[], b: LoadResult[]): RoundRatio {
  const ratios = a.map((result, round) => result.cpuPerRequestMs / b[round]!.cpuPerRequestMs);
  return { median: percentile(ratios, 0.5), low: Math.min(...ratios), high: Math.max(...ratios) };
}

/** Two servers' bytes allocated per request, in KiB, and their ratio: `a` and `b` the medians of their rounds. */
export const formatBytes = (a: LoadResult, b: LoadResult): string => `${(a.bytesPerRequest / 1024).toFixed(1)} / `
  + `${(b.bytesPerRequest / 1024).toFixed(1)} KiB (${(a.bytesPerRequest / b.bytesPerRequest).toFixed(2)}×)`;

export const formatRatio = ({ median, low, high }: RoundRatio): string =>
  `${median.toFixed(2)}× (rounds ${low.toFixed(2)}–${high.toFixed(2)})`;

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
