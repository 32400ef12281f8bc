// Side-by-side benchmark: the service against the floor server (bench/) and the design floor (the same handlers
// behind express and the contract's validator, bench/design-floor.ts), each a process of its own on core 0,
// loaded by autocannon on core 1 in interleaved A/B rounds. Prints both figures, the ratio and each server's CPU time
// per request per operation; the floor's writes keep their history entries, as the service's do. On PostgreSQL the
// writes are measured against a second floor as well, one that sends its statements unnamed.
// Run: `npm run bench` (PGlite) or `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench`.
// Settings: BENCH_ROWS (1000000), BENCH_DURATION seconds per round (10), BENCH_ROUNDS (3), DB_POOL_MAX (10),
// BENCH_ONLY, BENCH_WARM_UP (seconds, bench/load.ts), BENCH_PIN_POSTGRES (true: the local PostgreSQL on the load
// generator's core while it runs).
import { execFileSync } from 'node:child_process';
import { prepareDatabase } from './seed.ts';
import { pinPostgres, startServer, type ServerProcess } from './processes.ts';
import { cpuRatioByRound, formatBytes, formatRatio, load, median, percentile, warmUpSeconds, type LoadRequest,
  type LoadResult, type RoundRatio } from './load.ts';
import { wholeList, latencies, type ListResult } from './requests.ts';
import { batchSize } from '../src/crud/read/row-stream.ts';
import { selectOneCpuMs } from './statement-cost.ts';
import { requestHeaders as headersFor } from './tokens.ts';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const seconds = Number(process.env.BENCH_DURATION ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const poolMax = process.env.DB_POOL_MAX ?? '10';
// BENCH_ONLY: a regular expression; only the loaded operations whose names match it run (the rest of the run is kept).
const only = new RegExp(process.env.BENCH_ONLY ?? '');
const [serverCore, loadCore] = ['0', '1'];
const patterns = { rare: 'needle', common: 'comet' };
// Sighting -1 is demo data: an administrator may change it, alice (who makes every other request) may not.
const patcher = 'admin';
const patchMemo: LoadRequest = {
  method: 'PATCH', path: '/api/sighting/-1', body: JSON.stringify({ sightingMemo: 'patched [<id>]' }),
  headers: { 'Content-Type': 'application/merge-patch+json' }, connections: 1,
};
const history = '/api/sighting/-1/versions?limit=50';
const page = '/api/sighting?limit=50';
// This process (and the list downloads it makes) runs beside the load generator, away from the servers.
execFileSync('taskset', ['-cp', loadCore, String(process.pid)], { stdio: 'ignore' });
// BENCH_PIN_POSTGRES=true: the database beside it too (bench/processes.ts).
if (process.env.DATABASE_URL) pinPostgres(loadCore);

const db = await prepareDatabase(rows, Object.values(patterns));
const common = { PORT: '0', HOST: '127.0.0.1', DB_POOL_MAX: poolMax, KEYCLOAK_URL: process.env.KEYCLOAK_URL };
const service =
  await startServer('service', 'src/server.ts', { ...common, ...db.serviceEnv, DEMO_DATA: 'false' }, serverCore);
const issuerOf = (server: ServerProcess) =>
  `${process.env.KEYCLOAK_URL?.replace(/\/$/, '') ?? server.url}/realms/sighting`;
const issuer = issuerOf(service);
// The floor reads lists in the service's chunk (cursor) or batch (keyset) size.
const listChunk = String(process.env.DATABASE_URL ? batchSize.postgresql : batchSize.pglite);
const floor = await startServer('floor', 'bench/floor-server.ts',
  { ...common, ...db.floorEnv, ISSUER: issuer, AUDIENCE: 'sighting-api', LIST_CHUNK: listChunk }, serverCore);
// The design floor: the same handlers behind express and the contract's validator, what the design puts in every
// request's path (bench/design-floor.ts); the ratio the service answers for is against it.
const designFloor = await startServer('design floor', 'bench/floor-server.ts', { ...common, ...db.designFloorEnv,
  ISSUER: issuer, AUDIENCE: 'sighting-api', LIST_CHUNK: listChunk, FLOOR_DESIGN: 'true' }, serverCore);
const servers = [service, floor, designFloor];
/** CPU per request, service / design floor and service / bare floor, per loaded operation. */
const cpuRatios: Array<{ name: string; design: RoundRatio; bare: RoundRatio; bytes: string }> = [];
// On PostgreSQL the writes are also measured against the floor sending its statements unnamed, parsed and planned each
// time: the floor issue 33 set the service's write targets against, before the service named its statements.
const unnamedFloor = process.env.DATABASE_URL
  ? await startServer('floor, unnamed', 'bench/floor-server.ts', { ...common, ...db.floorEnv, ISSUER: issuer,
    AUDIENCE: 'sighting-api', LIST_CHUNK: listChunk, FLOOR_UNNAMED: 'true' }, serverCore)
  : undefined;

try {
  // Sighting -1 gets a history of 51 entries to list. On PostgreSQL the service writes them and both servers read them;
  // on PGlite each copy gets the same changes through its own server (their entries' times differ, so no history line).
  // Each states the version the one before made (the demo sighting starts at 0).
  const versionOf = new Map(servers.map((server) => [server, '"0"']));
  for (let i = 0; i < 50; i++) {
    for (const server of process.env.DATABASE_URL ? [service] : servers) {
      const response = await fetch(`${server.url}${patchMemo.path}`, {
        method: 'PATCH', headers: { ...await headersFor(issuer, patcher), ...patchMemo.headers,
          'If-Match': versionOf.get(server)! }, body: JSON.stringify({ sightingMemo: `patched ${i}` }) });
      if (!response.ok)
        throw new Error(`${server.name}: warm-up PATCH answered ${response.status}: ${await response.text()}`);
      versionOf.set(server, response.headers.get('etag')!);
    }
  }
  await sameAnswers(await headersFor(issuer));
  console.log(`backend ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${rows} rows, ${rounds} rounds `
    + `of ${seconds} s, pool ${poolMax}, node ${process.version}\n`);
  // On PostgreSQL also the database's CPU per request: both cores run the server and the database, so a ratio moves
  // with the sum of the two, not with the server's share alone.
  console.log(`${'operation'.padEnd(30)} ${'service req/s'.padStart(14)} ${'floor req/s'.padStart(12)}  ratio   p50 ms `
    + `svc/floor   p99 ms svc/floor   CPU ms/req svc/floor`
    + (process.env.DATABASE_URL ? '   PostgreSQL CPU ms/req svc/floor' : ''));
  const create = JSON.stringify({ sightingMemo: 'benchmark', vessel: { vesselId: -1 },
    sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30' });
  const replacement = JSON.stringify({ sightingMemo: 'replaced [<id>]', vessel: { vesselId: -2 },
    sightingTimezone: 'Asia/Tokyo', sightingDate: '2026-11-22T21:30' });
  const operations: [string, LoadRequest, string?][] = [
    ['GET /sighting/-1 c16', { method: 'GET', path: '/api/sighting/-1', connections: 16 }],
    ['GET /sighting/-1 c64', { method: 'GET', path: '/api/sighting/-1', connections: 64 }],
    // A page of the list: one statement, named on both (the floor's least SQL for it).
    ['GET /sighting?limit=50 c16', { method: 'GET', path: page, connections: 16 }],
    // Before the writes: the rare word is looked for in the seeded rows alone, not in as many more as the creates made
    // (PostgreSQL's scan, not the servers, bounds its rate, and a longer one changed the servers' CPU per request).
    ['POST /sighting/qbe rare c4', { method: 'POST', path: '/api/sighting/qbe',
      body: JSON.stringify({ sightingMemo: patterns.rare }), connections: 4 }],
    ['POST /sighting c16', { method: 'POST', path: '/api/sighting', body: create, connections: 16 }],
    // History and PATCH after the create, each against its own least SQL; the history before the PATCH rounds lengthen
    // it.
    ...process.env.DATABASE_URL ? [['GET /sighting/-1/versions c16',
      { method: 'GET', path: history, connections: 16 }] as [string, LoadRequest]] : [],
    // Replacements stating their version, 16 at once, each connection on a seeded sighting of its own (1 to 16), as an
    // administrator (the seeded ones are not alice's); the floor's is the conditional UPDATE with its entry.
    ['PUT /sighting/{n} c16',
      { method: 'PUT', path: '/api/sighting/{n}', body: replacement, connections: 16 }, patcher],
    // One connection: PATCHes of one record at once would conflict (409/412), which is not the cost measured here.
    ['PATCH /sighting/-1 c1', patchMemo, patcher],
  ];
  for (const [name, request, user] of operations.filter(([name]) => only.test(name))) {
    const loaded = [...servers, ...unnamedFloor && isWrite(request) ? [unnamedFloor] : []];
    const results = new Map<ServerProcess, LoadResult[]>(loaded.map((s) => [s, []]));
    // A round of each, not counted (bench/load.ts, `warmUpSeconds`).
    for (const server of loaded) await load(server, request, await headersFor(issuer, user), warmUpSeconds, loadCore);
    for (let round = 0; round < rounds; round++) {
      // In turn, then in the reverse order: no server always runs first on a warmer (or busier) machine.
      for (const server of round % 2 ? [...loaded].reverse() : loaded)
        results.get(server)!.push(await load(server, request, await headersFor(issuer, user), seconds, loadCore));
    }
    const [s, f, d, u] = loaded.map((server) => median(results.get(server)!));
    console.log(comparison(name, s!, f!));
    console.log(comparison('  against the design floor', s!, d!, false));
    if (u) console.log(comparison('  against the unnamed floor', s!, u, false));
    const [ofService, ofFloor, ofDesignFloor] = [service, floor, designFloor].map((server) => results.get(server)!);
    cpuRatios.push({ name, design: cpuRatioByRound(ofService!, ofDesignFloor!),
      bare: cpuRatioByRound(ofService!, ofFloor!), bytes: formatBytes(s!, d!) });
  }

  console.log('\nCPU per request, service / design floor (express + express-openapi-validator + the same SQL), '
    + 'beside service / bare floor (node:http), the median of the rounds\' ratios; bytes allocated per request, '
    + 'service / design floor:');
  for (const { name, design, bare, bytes } of cpuRatios)
    console.log(`  ${name.padEnd(30)} ${formatRatio(design)}   (bare: ${bare.median.toFixed(2)}×)   ${bytes}`);

  if (process.env.DATABASE_URL && only.test(operations[0]![0])) await compareWithPglite(operations[0]!);

  console.log('');
  for (const [label, pattern] of Object.entries(patterns)) {
    const body = JSON.stringify({ sightingMemo: pattern });
    const times = new Map<ServerProcess, number[]>(servers.map((s) => [s, []]));
    for (let round = 0; round < (label === 'rare' ? 20 : 5); round++) {
      for (const server of round % 2 ? [floor, service] : [service, floor])
        times.get(server)!.push(...await latencies(server, '/api/sighting/qbe', body, await headersFor(issuer), 1));
    }
    const [s, f] = servers.map((server) => percentile(times.get(server)!, 0.5));
    console.log(`qbe ${label} '${pattern}' sequential p50: service ${s!.toFixed(1)} ms, floor ${f!.toFixed(1)} ms, `
      + `ratio ${(s! / f!).toFixed(2)}×`);
  }

  console.log('');
  const lists = new Map<ServerProcess, ListResult>();
  for (const server of servers) lists.set(server, await wholeList(server, await headersFor(issuer)));
  const [sl, fl] = servers.map((server) => lists.get(server)!);
  // On PGlite each server has its own copy of the data, and the creates above went to each copy in different numbers.
  const same = sl!.sha256 === fl!.sha256;
  if (!same && process.env.DATABASE_URL) throw new Error('the two lists differ');
  console.log(`whole list: service ${sl!.seconds.toFixed(2)} s, floor ${fl!.seconds.toFixed(2)} s, `
    + `ratio ${(sl!.seconds / fl!.seconds).toFixed(2)}×; `
    + `${(sl!.bytes / 1e6).toFixed(1)} MB / ${(fl!.bytes / 1e6).toFixed(1)} MB `
    + `(${same ? 'identical' : 'each copy holds its own creates'})`);
  console.log(`  RSS before → peak: service ${mb(sl!.rssBefore)} → ${mb(sl!.rssPeak)} MB `
    + `(+${mb(sl!.rssPeak - sl!.rssBefore)}), `
    + `floor ${mb(fl!.rssBefore)} → ${mb(fl!.rssPeak)} MB (+${mb(fl!.rssPeak - fl!.rssBefore)})`);
  console.log(`  GET /sighting/-1 while the list streams: service p50 ${sl!.probe.p50.toFixed(0)} ms, `
    + `p99 ${sl!.probe.p99.toFixed(0)} ms, max ${sl!.probe.max.toFixed(0)} ms `
    + `(${sl!.probe.count} probes); floor p99 ${fl!.probe.p99.toFixed(0)} ms`);

  // The service's whole list in XML beside the same list in JSON, one after the other (BENCH_ROWS=100000: 100k rows).
  const formats = { json: [] as ListResult[], xml: [] as ListResult[] };
  for (let round = 0; round < rounds; round++) {
    for (const format of round % 2 ? ['xml', 'json'] as const : ['json', 'xml'] as const) {
      formats[format].push(await wholeList(service,
        { ...await headersFor(issuer), Accept: format === 'xml' ? 'text/xml' : 'application/json' }));
    }
  }
  const middle = (runs: ListResult[]) => [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
  const [json, xml] = [middle(formats.json), middle(formats.xml)];
  console.log(`whole list XML / JSON (service, `
    + `median of ${rounds}): ${xml!.seconds.toFixed(2)} s / ${json!.seconds.toFixed(2)} s, ratio `
    + `${(xml!.seconds / json!.seconds).toFixed(2)}×; ${(xml!.bytes / 1e6).toFixed(1)} MB `
    + `/ ${(json!.bytes / 1e6).toFixed(1)} MB`);

  console.log('\nquery plans (EXPLAIN ANALYZE, taken after seeding):');
  for (const [pattern, plan] of Object.entries(db.plans)) console.log(`-- '${pattern}'\n${plan}`);
} finally {
  for (const server of [...servers, ...unnamedFloor ? [unnamedFloor] : []]) await server.stop();
  await db.drop();
}

/**
 * The zero-setup default against production: the service itself on PGlite (in memory, demo data) and on
 * PostgreSQL, loaded alternately like the rest. PGlite runs in the service's own process, on its core.
 */
async function compareWithPglite([name, request]: [string, LoadRequest, string?]): Promise<void> {
  // Left out, not empty: an empty setting is refused at start.
  const pglite = await startServer('service on PGlite', 'src/server.ts',
    { ...common, DATABASE_URL: undefined, DATA_DIR: undefined }, serverCore);
  try {
    const runs: { pglite: LoadResult[]; postgresql: LoadResult[] } = { pglite: [], postgresql: [] };
    for (let round = 0; round < rounds; round++) {
      for (const backend of round % 2 ? ['pglite', 'postgresql'] as const : ['postgresql', 'pglite'] as const) {
        const server = backend === 'pglite' ? pglite : service;
        runs[backend].push(await load(server, request, await headersFor(issuerOf(server)), seconds, loadCore));
      }
    }
    const [onPglite, onPostgres] = [median(runs.pglite), median(runs.postgresql)];
    console.log(`${`${name}, service on PGlite`.padEnd(30)} ${onPglite.reqPerSec.toFixed(0).padStart(14)} `
      + `${'(PostgreSQL)'.padStart(12)} `
      + `${onPostgres.reqPerSec.toFixed(0)}: ratio ${(onPglite.reqPerSec / onPostgres.reqPerSec).toFixed(2)}×; `
      + `CPU ms/req ${pair(onPglite.cpuPerRequestMs, onPostgres.cpuPerRequestMs, 2)}`);
    // On PGlite the database's own work runs on the service's core: its cost per statement bounds the ratio above.
    const selectOne = await selectOneCpuMs(process.env.DATABASE_URL!);
    console.log(`${''.padEnd(30)} 'select 1' costs its caller ${selectOne.pglite.toFixed(3)} ms CPU on `
      + `PGlite, ${selectOne.postgresql.toFixed(3)} ms over pg`);
  } finally {
    await pglite.stop();
  }
}

/** Request headers with a token of alice's, fetched anew every minute: a run outlasts a token (5 minutes). */
/** The floor is only a floor if it does the same work: both must answer the same bytes. */
async function sameAnswers(headers: Record<string, string>): Promise<void> {
  const paths: [string, string | undefined][] = [['/api/sighting/-1', undefined], [page, undefined],
    ['/api/sighting/qbe', JSON.stringify({ sightingMemo: patterns.rare })]];
  if (process.env.DATABASE_URL) paths.push([history, undefined]);
  for (const [path, body] of paths) {
    const [own, ...floors] = await Promise.all(servers.map(async (s) =>
      (await fetch(`${s.url}${path}`, { method: body ? 'POST' : 'GET', headers, body })).text()));
    for (const [index, answer] of floors.entries()) {
      if (answer !== own) throw new Error(`service and ${servers[index + 1]!.name} answer ${path} differently:\n`
        + `${own}\n${answer}`);
    }
  }
}

/** One line of the table: the service's figures against a floor's (the service's req/s left out on a second line). */
function comparison(label: string, s: LoadResult, f: LoadResult, serviceRate = true): string {
  return `${label.padEnd(30)} ${(serviceRate ? s.reqPerSec.toFixed(0) : '').padStart(14)} `
    + `${f.reqPerSec.toFixed(0).padStart(12)}  ${(s.reqPerSec / f.reqPerSec).toFixed(2)}×   `
    + `${pair(s.p50, f.p50).padEnd(18)} ${pair(s.p99, f.p99).padEnd(18)} `
    + `${pair(s.cpuPerRequestMs, f.cpuPerRequestMs, 2).padEnd(20)}`
    + (process.env.DATABASE_URL ? `   ${pair(s.databaseCpuPerRequestMs, f.databaseCpuPerRequestMs, 2)}` : '');
}

function isWrite(request: LoadRequest): boolean {
  return request.method !== 'GET' && !request.path.endsWith('/qbe');
}

function pair(a: number, b: number, digits = 1): string {
  return `${a.toFixed(digits)} / ${b.toFixed(digits)}`;
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(0);
}


