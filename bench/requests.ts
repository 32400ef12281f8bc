// Single timed requests from the driver process: a whole list (with RSS sampling and a GET probe) and latencies.
import { createHash } from 'node:crypto';
import { rssBytes, type ServerProcess } from './processes.ts';

export interface ListResult {
  seconds: number;
  bytes: number;
  sha256: string;
  rssBefore: number;
  rssPeak: number;
  /** GET by id, answered while the list streams: does one long list stall the server? */
  probe: { count: number; p50: number; p99: number; max: number };
}

export async function wholeList(server: ServerProcess, headers: Record<string, string>): Promise<ListResult> {
  const pid = server.child.pid!;
  const rssBefore = rssBytes(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rssBytes(pid)); }, 50);
  let streaming = true;
  const probes: number[] = [];
  const probe = (async () => {
    while (streaming) {
      probes.push(...await latencies(server, '/api/sighting/-1', undefined, headers, 1));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${server.url}/api/sighting`, { headers });
  if (response.status !== 200) throw new Error(`${server.name} GET /api/sighting: ${response.status}`);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of response.body!) {
    bytes += chunk.length;
    hash.update(chunk);
  }
  const seconds = (performance.now() - started) / 1000;
  streaming = false;
  await probe;
  clearInterval(sampler);
  const sorted = probes.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { seconds, bytes, sha256: hash.digest('hex'), rssBefore, rssPeak,
    probe: { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN } };
}

/** Sends `count` requests one after the other; their latencies in milliseconds. */
export async function latencies(server: ServerProcess, path: string, body: string | undefined,
  headers: Record<string, string>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { method: body ? 'POST' : 'GET', headers, body });
    await response.arrayBuffer();
    if (response.status >= 300) throw new Error(`${server.name} ${path}: ${response.status}`);
    times.push(performance.now() - started);
  }
  return times;
}
