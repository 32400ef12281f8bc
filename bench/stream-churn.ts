// Opens under churn: `clients` loops against a service whose stream cap is below their number, each opening a
// change-feed stream, holding it 0.1–1 s and leaving (a refused one leaves at once and tries again), while a writer
// creates a record every 50 ms. How long an open that is admitted takes to get its headers, and how many are refused.
import { request } from 'node:http';
import type { ServerProcess } from './processes.ts';

export interface ChurnResult {
  opened: number;
  refused: number;
  /** Time to headers of the admitted opens, ms. */
  p50: number;
  p90: number;
  p99: number;
}

export async function streamChurn(server: ServerProcess, token: string, clients: number, seconds: number,
  resume: boolean): Promise<ChurnResult> {
  const authorization = `Bearer ${token}`;
  const times: number[] = [];
  let refused = 0;
  let lastEventId = 0;
  const until = performance.now() + seconds * 1000;
  const writer = (async () => {
    while (performance.now() < until) {
      const created = await fetch(`${server.url}/api/sighting`, {
        method: 'POST', headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sightingMemo: 'churn', vessel: { vesselId: -1 } }),
      });
      await created.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const open = () => new Promise<void>((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string> = { Authorization: authorization, Accept: 'text/event-stream' };
    // A resuming client asks for the last 20 events again: a catch-up read per open.
    if (resume && lastEventId) headers['Last-Event-ID'] = String(Math.max(0, lastEventId - 20));
    const req = request(`${server.url}/api/sighting/events`, { headers, agent: false }, (res) => {
      if (res.statusCode === 200) times.push(performance.now() - started);
      else if (res.statusCode === 503) refused += 1;
      else return reject(new Error(`${server.name}: a stream answered ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => {
        for (const [, id] of String(chunk).matchAll(/^id: (\d+)$/gm)) lastEventId = Math.max(lastEventId, Number(id));
      });
      setTimeout(() => {
        req.destroy();
        resolve();
      }, res.statusCode === 200 ? 100 + Math.random() * 900 : 50);
    });
    req.on('error', reject);
    req.end();
  });
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < until) await open();
  }));
  await writer;
  const sorted = times.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { opened: sorted.length, refused, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}
