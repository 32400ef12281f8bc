// Where the service's CPU goes beyond the design floor's, per request: both servers pinned to core 0, each loaded in
// turn from core 1 with one of the five operations while V8's sampling profiler runs in it (through its inspector,
// over the load's window only: no start-up, no warm-up). Prints the self time per request of each part (a package, a
// file of src/, a node module, the collector …) in both, then the functions that differ most. Asserts nothing.
// Run: `BENCH_ONLY='sighting/-1 c16' DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:profile`
// Settings: BENCH_ONLY (a regular expression over the operations' names, bench/five-operations.ts; each that matches
// is profiled), BENCH_DURATION seconds of load per profile (5), BENCH_ROWS (100000), BENCH_PROFILE_TOP (20),
// BENCH_PIN_POSTGRES (bench/processes.ts), BENCH_PROFILE_DIR (each profile written there too, to open in DevTools).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareDatabase } from './seed.ts';
import { freePort, pinPostgres, type ServerProcess } from './processes.ts';
import { load, warmUpSeconds } from './load.ts';
import { fiveOperations, rareWord, userOf } from './five-operations.ts';
import { openInspector } from './inspector.ts';
import { requestHeaders } from './tokens.ts';
import { startServiceAndDesignFloor } from './service-and-design-floor.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

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
  for (const [name, request] of fiveOperations.filter(([name]) => only.test(name))) {
    const headers = await requestHeaders(issuer, userOf(request));
    const perRequest = new Map<ServerProcess, Profile & { requests: number }>();
    for (const [server, port] of servers) {
      // Not profiled: V8 compiles the operation's path while it is new.
      await load(server, request, headers, warmUpSeconds, '1');
      const inspector = await openInspector(port);
      await inspector.call('Profiler.enable');
      await inspector.call('Profiler.setSamplingInterval', { interval: 250 });
      await inspector.call('Profiler.start');
      const result = await load(server, request, headers, seconds, '1');
      const { profile } = await inspector.call<{ profile: Profile }>('Profiler.stop');
      inspector.close();
      if (process.env.BENCH_PROFILE_DIR) writeFileSync(join(process.env.BENCH_PROFILE_DIR,
        `${`${server.name} ${name}`.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile));
      perRequest.set(server, { ...profile, requests: result.reqPerSec * seconds });
    }
    const [s, d] = [perRequest.get(service)!, perRequest.get(designFloor)!];
    console.log(`\n${name}: profile µs per request, service / design floor (sampled every 250 µs over ${seconds} s)`);
    printSideBySide('part', selfTimes(s, part), selfTimes(d, part), s.requests, d.requests);
    printSideBySide('function', selfTimes(s, functionOf), selfTimes(d, functionOf), s.requests, d.requests);
  }
} finally {
  for (const server of servers.keys()) await server.stop();
  await db.drop();
}

/** Microseconds of samples whose own frame (not its callers) falls in each group. */
function selfTimes(profile: Profile, groupOf: (node: ProfileNode) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const group = groupOf(byId.get(id)!);
    times.set(group, (times.get(group) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return times;
}

/** A package of node_modules, a file of the project, a module of node, or V8's own entries ((garbage collector) …). */
function part({ callFrame: { functionName, url } }: ProfileNode): string {
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName}`;
  const inPackage = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  const own = /\/((src|bench)\/.*)$/.exec(url);
  return own ? own[1]! : url.replace(/^file:\/\/.*\//, '');
}

function functionOf(node: ProfileNode): string {
  return `${node.callFrame.functionName || '(anonymous)'} ${part(node)}:${node.callFrame.lineNumber + 1}`;
}

function printSideBySide(label: string, service: Map<string, number>, floor: Map<string, number>,
  serviceRequests: number, floorRequests: number): void {
  const rows = [...new Set([...service.keys(), ...floor.keys()])].map((key) => {
    const [s, f] = [(service.get(key) ?? 0) / serviceRequests, (floor.get(key) ?? 0) / floorRequests];
    return { key, s, f };
  }).filter(({ key }) => key !== '(idle)').sort((a, b) => Math.abs(b.s - b.f) - Math.abs(a.s - a.f));
  const total = (times: Map<string, number>, requests: number) =>
    ([...times].filter(([key]) => key !== '(idle)').reduce((sum, [, time]) => sum + time, 0) / requests).toFixed(0);
  console.log(`  by ${label}, most different first (busy in all: ${total(service, serviceRequests)} / `
    + `${total(floor, floorRequests)})`);
  for (const { key, s, f } of rows.slice(0, top))
    console.log(`    ${s.toFixed(1).padStart(7)} ${f.toFixed(1).padStart(7)}  ${key}`);
}
