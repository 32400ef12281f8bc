// What both profiling benches (bench/cpu-profile.ts, bench/allocation-sites.ts) share: the service and the design floor
// pinned to core 0, each loaded in turn from core 1 with one of the five operations while a profiler of V8's runs in
// it (through its inspector, over the load's window only: no start-up, no warm-up), and a table per operation of the
// amount per request by part (a package, a file of src/, a node module, V8's own entries) and by function, the service
// beside the design floor, most different first.
// Settings: BENCH_ONLY (a regular expression over the operations' names, bench/five-operations.ts; each that matches
// is profiled), BENCH_DURATION seconds of load per profile (5), BENCH_ROWS (100000), BENCH_PROFILE_TOP (20),
// BENCH_PIN_POSTGRES (bench/processes.ts).
import { execFileSync } from 'node:child_process';
import { prepareDatabase } from './seed.ts';
import { freePort, pinPostgres, type ServerProcess } from './processes.ts';
import { load, warmUpSeconds } from './load.ts';
import { fiveOperations, rareWord, userOf } from './five-operations.ts';
import { openInspector, type InspectorSession } from './inspector.ts';
import { requestHeaders } from './tokens.ts';
import { startServiceAndDesignFloor } from './service-and-design-floor.ts';

export interface Frame { functionName: string; url: string; lineNumber: number }

export interface Profiler {
  /** What it sums, for the tables' titles: `µs of samples`. */
  measure: string;
  start(inspector: InspectorSession): Promise<void>;
  /** Stops, and answers each amount it took with the frame it falls to (its own, not its callers'). */
  stop(inspector: InspectorSession, profileName: string): Promise<Array<[Frame, number]>>;
}

export async function profileSideBySide(profiler: Profiler): Promise<void> {
  const seconds = Number(process.env.BENCH_DURATION ?? 5);
  const top = Number(process.env.BENCH_PROFILE_TOP ?? 20);
  const only = new RegExp(process.env.BENCH_ONLY ?? '');
  execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  if (process.env.DATABASE_URL) pinPostgres('1');

  const db = await prepareDatabase(Number(process.env.BENCH_ROWS ?? 100_000), [rareWord]);
  const ports = [await freePort(), await freePort()] as const;
  const { service, designFloor, issuer } = await startServiceAndDesignFloor(db, { env: {
    service: { NODE_OPTIONS: `--inspect=127.0.0.1:${ports[0]}` },
    designFloor: { NODE_OPTIONS: `--inspect=127.0.0.1:${ports[1]}` } } });
  const servers = new Map<ServerProcess, number>([[service, ports[0]], [designFloor, ports[1]]]);
  try {
    for (const [name, request] of fiveOperations.filter(([operation]) => only.test(operation))) {
      const headers = await requestHeaders(issuer, userOf(request));
      const profiles = new Map<ServerProcess, { amounts: Array<[Frame, number]>; requests: number }>();
      for (const [server, port] of servers) {
        // Not profiled: V8 compiles the operation's path while it is new.
        await load(server, request, headers, warmUpSeconds, '1');
        const inspector = await openInspector(port);
        await profiler.start(inspector);
        const result = await load(server, request, headers, seconds, '1');
        const amounts = await profiler.stop(inspector, `${server.name} ${name}`.replace(/\W+/g, '-'));
        inspector.close();
        profiles.set(server, { amounts, requests: result.reqPerSec * seconds });
      }
      const [s, d] = [profiles.get(service)!, profiles.get(designFloor)!];
      console.log(`\n${name}: ${profiler.measure} per request, service / design floor, ${seconds} s each`);
      for (const [label, groupOf] of [['part', partOf], ['function', functionOf]] as const)
        printSideBySide(label, sum(s.amounts, groupOf), sum(d.amounts, groupOf), s.requests, d.requests, top);
    }
  } finally {
    for (const server of servers.keys()) await server.stop();
    await db.drop();
  }
}

function sum(amounts: Array<[Frame, number]>, groupOf: (frame: Frame) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [frame, amount] of amounts) {
    const group = groupOf(frame);
    sums.set(group, (sums.get(group) ?? 0) + amount);
  }
  return sums;
}

/** A package of node_modules, a file of the project, a module of node, or V8's own entries ((garbage collector) …). */
function partOf({ functionName, url }: Frame): string {
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName}`;
  const inPackage = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  const own = /\/((src|bench)\/.*)$/.exec(url);
  return own ? own[1]! : url.replace(/^file:\/\/.*\//, '');
}

function functionOf(frame: Frame): string {
  return `${frame.functionName || '(anonymous)'} ${partOf(frame)}:${frame.lineNumber + 1}`;
}

/** The `top` groups most different per request, the idle time of a CPU profile left out. */
export function printSideBySide(label: string, service: Map<string, number>, floor: Map<string, number>,
  serviceRequests: number, floorRequests: number, top: number): void {
  const rows = [...new Set([...service.keys(), ...floor.keys()])].map((key) => {
    const [s, f] = [(service.get(key) ?? 0) / serviceRequests, (floor.get(key) ?? 0) / floorRequests];
    return { key, s, f };
  }).filter(({ key }) => key !== '(idle)').sort((a, b) => Math.abs(b.s - b.f) - Math.abs(a.s - a.f));
  const total = (amounts: Map<string, number>, requests: number) =>
    ([...amounts].filter(([key]) => key !== '(idle)').reduce((all, [, amount]) => all + amount, 0) / requests)
      .toFixed(0);
  console.log(`  by ${label}, most different first (in all: ${total(service, serviceRequests)} / `
    + `${total(floor, floorRequests)})`);
  for (const { key, s, f } of rows.slice(0, top))
    console.log(`    ${s.toFixed(1).padStart(7)} ${f.toFixed(1).padStart(7)}  ${key}`);
}
