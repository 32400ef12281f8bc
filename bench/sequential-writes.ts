// Writes that state their version, one after the other on each record: a PATCH with If-Match of the last ETag, or a
// PUT with the last ETag's version in its body (a write must state its version, docs/behaviour.md#update), which
// autocannon cannot follow. CONNECTIONS loops run side by side, loop n on the record URL-TEMPLATE names with `{n}`
// replaced by n.
// Run by bench/load.ts, prints autocannon's JSON figures:
// node bench/sequential-writes.ts METHOD URL-TEMPLATE CONNECTIONS SECONDS HEADERS-JSON BODY [RATE]
// (each '[<id>]' in BODY made unique each time; RATE, requests a second in all, paces the loops, as autocannon's -R).
// bench/instructions-per-request.ts calls `writeInTurn` for a number of writes instead of a time.
import { setTimeout as delay } from 'node:timers/promises';
import { percentile } from './load.ts';

export interface WritesInTurn {
  method: string;
  template: string;
  connections: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds between one loop's sends (0: as fast as answered). */
  gapMs?: number;
  /** Asked before each send, by every loop: false ends that loop. */
  more(): boolean;
}

export async function writeInTurn({ method, template, connections, headers, body, gapMs = 0, more }: WritesInTurn) {
  const times: number[] = [];
  let ok = 0;
  let non2xx = 0;
  const started = performance.now();
  const loop = async (n: number): Promise<void> => {
    const url = template.replaceAll('{n}', String(n));
    let etag = (await fetch(url, { headers })).headers.get('etag') ?? '"0"';
    for (let i = 0; more(); i++) {
      const due = started + i * gapMs;
      if (performance.now() < due) await delay(due - performance.now());
      const text = body.replaceAll('[<id>]', `${process.pid}-${n}-${i}`);
      const sent = performance.now();
      const response = method === 'PATCH'
        ? await fetch(url, { method, headers: { ...headers, 'If-Match': etag }, body: text })
        : await fetch(url, { method, headers,
          body: JSON.stringify({ ...JSON.parse(text) as object, version: Number(JSON.parse(etag)) }) });
      await response.arrayBuffer();
      times.push(performance.now() - sent);
      if (response.ok) ok += 1;
      else non2xx += 1;
      etag = response.headers.get('etag') ?? etag;
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, n) => loop(n + 1)));
  return { '2xx': ok, non2xx, errors: 0, duration: (performance.now() - started) / 1000,
    latency: { p50: percentile(times, 0.5), p99: percentile(times, 0.99) } };
}

if (import.meta.main) {
  const [method = 'PATCH', template = '', connections = '1', seconds = '10', headersJson = '{}', body = '{}', rate] =
    process.argv.slice(2);
  const started = performance.now();
  console.log(JSON.stringify(await writeInTurn({ method, template, connections: Number(connections), body,
    headers: JSON.parse(headersJson) as Record<string, string>,
    // Each loop's gap when paced: the loops together send `rate` a second.
    gapMs: rate ? Number(connections) * 1000 / Number(rate) : 0,
    more: () => performance.now() - started < Number(seconds) * 1000 })));
}
