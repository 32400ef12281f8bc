// What one open change-feed stream holds on the V8 heap, the service beside the bare floor (bench/floor-server.ts):
// a heap snapshot of each server with STREAMS streams open and one with twice as many, and the difference per stream by
// kind of object (constructor or V8 type). Unlike RSS (`npm run bench:feed`), it counts live objects only, not garbage
// or heap not yet given back, so it holds on a loaded machine too. Prints figures, asserts nothing.
// Run: `node bench/stream-heap.ts` (PGlite) or with DATABASE_URL (a scratch database made there and dropped after).
// Settings: STREAMS (1000), HEAP_ROWS (25: kinds listed per server).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type ClientRequest } from 'node:http';
import { prepareDatabase } from './seed.ts';
import { passwordToken } from './tokens.ts';

const streams = Number(process.env.STREAMS ?? 1000);
const rows = Number(process.env.HEAP_ROWS ?? 25);
const db = await prepareDatabase(0, []);
const dir = mkdtempSync(join(tmpdir(), 'stream-heap-'));
const common = { PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '1000000' };
const open: ClientRequest[] = [];
const children: ChildProcess[] = [];
process.once('exit', () => { for (const child of children) child.kill('SIGKILL'); });

interface Snapshot { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[];
  strings: string[] }

try {
  const service = await start('service', 'src/server.ts', { ...db.serviceEnv, DEMO_DATA: 'false',
    EVENTS_MAX_SUBSCRIBERS: String(2 * streams), EVENTS_MAX_SUBSCRIBERS_PER_CALLER: String(2 * streams) });
  const issuer = `${service.url}/realms/sighting`;
  const floor = await start('floor', 'bench/floor-server.ts',
    { ...db.floorEnv, ISSUER: issuer, AUDIENCE: 'sighting-api' });
  const token = await passwordToken(issuer, 'alice');
  console.log(`V8 heap per open stream (live objects, from heap snapshots), ${streams} streams, `
    + `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, node ${process.version}`);
  const perStream = new Map<string, number>();
  for (const server of [service, floor]) {
    // The difference between STREAMS open and twice as many: what the first ones' path compiled (some 2 KB a stream
    // of 1,000 when it was counted) and anything their opening left is in both snapshots, not taken for what a stream
    // holds.
    await subscribeAll(server.url, token, streams);
    const before = kinds(await snapshot(server));
    await subscribeAll(server.url, token, streams);
    const after = kinds(await snapshot(server));
    for (const stream of open.splice(0)) stream.destroy();
    const grown = [...after].map(([kind, [count, bytes]]) => [kind,
      (count - (before.get(kind)?.[0] ?? 0)) / streams, (bytes - (before.get(kind)?.[1] ?? 0)) / streams] as const);
    const total = grown.reduce((sum, [, , bytes]) => sum + bytes, 0);
    perStream.set(server.name, total);
    console.log(`\n${server.name}: ${total.toFixed(0)} bytes per stream; the kinds that grew most:`);
    for (const [kind, count, bytes] of grown.sort((a, b) => b[2] - a[2]).slice(0, rows))
      console.log(`  ${bytes.toFixed(0).padStart(6)} B  ${count.toFixed(2).padStart(6)} per stream  ${kind}`);
  }
  console.log(`\nheap per stream, service / bare node:http: `
    + `${(perStream.get('service')! / perStream.get('floor')!).toFixed(2)}×`);
} finally {
  for (const stream of open) stream.destroy();
  for (const child of children) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  await db.drop();
}

/** Starts a server that writes a heap snapshot into `dir` on SIGUSR2, and waits for its URL. */
async function start(name: string, script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--expose-gc', '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`,
    script], { env: { ...process.env, ...common, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    child.stdout!.on('data', (data: Buffer) => {
      out += data;
      const match = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
    });
  });
  child.stdout!.resume();
  return { name, url, child };
}

/** Has the server write a heap snapshot (V8 collects garbage first) and reads it once it is whole. */
async function snapshot(server: { child: ChildProcess }): Promise<Snapshot> {
  const had = new Set(readdirSync(dir));
  server.child.kill('SIGUSR2');
  let file: string | undefined;
  let size = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    file ??= readdirSync(dir).find((name) => !had.has(name));
    if (!file) continue;
    const now = statSync(join(dir, file)).size;
    // A snapshot is written in one go: its size stands still once it is done (and it then parses).
    if (now === size && now > 0) {
      try {
        return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Snapshot;
      } catch {
        // Still being written.
      }
    }
    size = now;
  }
}

/** Count and bytes per kind of object: type and name (a constructor's, a closure's), strings by type alone. */
function kinds(heap: Snapshot): Map<string, [number, number]> {
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field)) as [number, number,
    number];
  const byKind = new Map<string, [number, number]>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const kindType = types[heap.nodes[i + type]!]!;
    const kind = kindType.endsWith('string') || kindType === 'code' ? kindType
      : `${kindType}: ${heap.strings[heap.nodes[i + name]!]!.slice(0, 60)}`;
    const entry = byKind.get(kind) ?? [0, 0];
    entry[0] += 1;
    entry[1] += heap.nodes[i + size]!;
    byKind.set(kind, entry);
  }
  return byKind;
}

/**
 * Opens `count` streams, 20 at a time: a thousand at once kept a loaded machine's service from reading some within its
 * header bound (408).
 */
async function subscribeAll(url: string, token: string, count: number): Promise<void> {
  for (let opened = 0; opened < count; opened += 20) {
    await Promise.all(Array.from({ length: Math.min(20, count - opened) }, () => subscribe(url, token)));
  }
}

/** Opens one stream and resolves once its headers have come. */
function subscribe(url: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/sighting/events`,
      { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.resume();
        resolve();
      });
    req.on('error', reject);
    req.end();
    open.push(req);
  });
}
