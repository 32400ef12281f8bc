// System calls per request, the service beside the floor (bench/floor-server.ts): strace counts them while a read is
// loaded (16 connections, from core 1; the servers on core 0). Shows which of the service's extra CPU is the kernel's
// (more writes or reads per answer) and which is its own JavaScript (the same calls, more time between them).
// Run: `DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test node bench/syscalls-per-request.ts` (needs strace).
// Settings: BENCH_PATH (/api/sighting/-1), BENCH_DURATION seconds (4).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { prepareDatabase } from './seed.ts';
import { load } from './load.ts';
import { passwordToken } from './tokens.ts';
import { startServer, type ServerProcess } from './processes.ts';

const path = process.env.BENCH_PATH ?? '/api/sighting/-1';
const seconds = Number(process.env.BENCH_DURATION ?? 4);
const db = await prepareDatabase(10_000, []);
const common = { PORT: '0', HOST: '127.0.0.1', DB_POOL_MAX: '10' };
const service = await startServer('service', 'src/server.ts', { ...common, ...db.serviceEnv, DEMO_DATA: 'false' }, '0');
const issuer = `${service.url}/realms/sighting`;
const floor = await startServer('floor', 'bench/floor-server.ts',
  { ...common, ...db.floorEnv, ISSUER: issuer, AUDIENCE: 'sighting-api' }, '0');
try {
  const headers = { Authorization: `Bearer ${await passwordToken(issuer, 'alice')}` };
  for (const server of [service, floor]) {
    await load(server, { method: 'GET', path, connections: 16 }, headers, 2, '1');
    const counted = await countedWhile(server, () =>
      load(server, { method: 'GET', path, connections: 16 }, headers, seconds, '1'));
    console.log(`${server.name}, GET ${path}: ${counted.requests} requests, system calls per request:`);
    for (const [call, count] of counted.calls) {
      console.log(`  ${call.padEnd(14)} ${(count / counted.requests).toFixed(2)}`);
    }
  }
} finally {
  await service.stop();
  await floor.stop();
  await db.drop();
}

/** strace's summary (`-c`, every thread) of the server's calls while `work` runs; calls under 1 in 20 requests left
 * out. */
async function countedWhile(server: ServerProcess, work: () => ReturnType<typeof load>) {
  const strace = spawn('strace', ['-c', '-f', '-p', String(server.child.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let summary = '';
  const attached = new Promise<void>((resolve) => strace.stderr.on('data', (data: Buffer) => {
    summary += data;
    // It names each thread as it attaches; the last of them follows the first within a moment.
    if (summary.includes('attached')) resolve();
  }));
  await attached;
  const result = await work();
  strace.kill('SIGINT');
  await once(strace, 'exit');
  const requests = Math.round(result.reqPerSec * seconds);
  const calls: [string, number][] = [];
  // % time, seconds, usecs/call, calls, [errors], syscall
  for (const line of summary.split('\n')) {
    const match = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
    if (match && Number(match[1]) >= requests / 20) calls.push([match[2]!, Number(match[1])]);
  }
  return { requests, calls };
}
