// Writes that state their version, one after the other on each record: a PATCH with If-Match of the last ETag, or a
// PUT with the last ETag's version in its body (a write must state its version, docs/behaviour.md#update), which
// autocannon cannot follow. CONNECTIONS loops run side by side, loop n on the record URL-TEMPLATE names with `{n}`
// replaced by n.
// Prints autocannon's JSON figures.
// Run by bench/load.ts:
// node bench/sequential-writes.ts METHOD URL-TEMPLATE CONNECTIONS SECONDS HEADERS-JSON BODY [RATE]
// (each '[<id>]' in BODY made unique each time; RATE, requests a second in all, paces the loops, as autocannon's -R).
import { setTimeout as delay } from 'node:timers/promises';
import { percentile } from './load.ts';

const [method = 'PATCH', template = '', connections = '1', seconds = '10', headersJson = '{}', body = '{}', rate] =
  process.argv.slice(2);
/** Each loop's milliseconds between sends when paced: the loops together send `rate` a second. */
const gapMs = rate ? Number(connections) * 1000 / Number(rate) : 0;
const headers = JSON.parse(headersJson) as Record<string, string>;
const times: number[] = [];
let ok = 0;
let non2xx = 0;
const started = performance.now();

async function loop(n: number): Promise<void> {
  const url = template.replaceAll('{n}', String(n));
  let etag = (await fetch(url, { headers })).headers.get('etag') ?? '"0"';
  for (let i = 0; performance.now() - started < Number(seconds) * 1000; i++) {
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
}

await Promise.all(Array.from({ length: Number(connections) }, (_, n) => loop(n + 1)));
console.log(JSON.stringify({ '2xx': ok, non2xx, errors: 0, duration: (performance.now() - started) / 1000,
  latency: { p50: percentile(times, 0.5), p99: percentile(times, 0.99) } }));
