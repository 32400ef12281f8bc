// What express 5 costs a request by itself: the same small answer from node:http alone and through express, each a
// process pinned to core 0, loaded in turn from core 1 (BENCH_ROUNDS rounds of BENCH_DURATION s, 16 connections).
// Run: `node bench/express-cost.ts`. The floor of `npm run bench` is node:http; the service is express.
import { execFileSync } from 'node:child_process';
import { startServer } from './processes.ts';
import { load, median, type LoadResult } from './load.ts';

const seconds = Number(process.env.BENCH_DURATION ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
const servers = [
  await startServer('node:http', 'bench/bare-answer-server.ts', { ANSWER_WITH: 'node' }, '0'),
  await startServer('express', 'bench/bare-answer-server.ts', { ANSWER_WITH: 'express' }, '0'),
];
try {
  const results = new Map(servers.map((server) => [server, [] as LoadResult[]]));
  for (let round = 0; round < rounds; round++) {
    for (const server of round % 2 ? [...servers].reverse() : servers) {
      const request = { method: 'GET', path: '/api/x/1', connections: 16 } as const;
      results.get(server)!.push(await load(server, request, {}, seconds, '1'));
    }
  }
  const [bare, framed] = servers.map((server) => median(results.get(server)!));
  console.log(`node:http ${bare!.reqPerSec.toFixed(0)} req/s, CPU ${(bare!.cpuPerRequestMs * 1000).toFixed(0)} µs/req; `
    + `express ${framed!.reqPerSec.toFixed(0)} req/s, CPU ${(framed!.cpuPerRequestMs * 1000).toFixed(0)} µs/req; `
    + `express / node:http ${(framed!.reqPerSec / bare!.reqPerSec).toFixed(2)}× the rate`);
} finally {
  for (const server of servers) await server.stop();
}
