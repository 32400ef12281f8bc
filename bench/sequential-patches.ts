// PATCHes of one record one after the other, each stating the version the last one made (If-Match of its ETag): a
// patch must state its version (contract D), which autocannon cannot follow. Prints autocannon's JSON figures.
// Run by bench/load.ts: node bench/sequential-patches.ts URL SECONDS HEADERS-JSON BODY ('[<id>]' made unique each time).
import { percentile } from './load.ts';

const [url = '', seconds = '10', headersJson = '{}', body = '{}'] = process.argv.slice(2);
const headers = JSON.parse(headersJson) as Record<string, string>;
let etag = (await fetch(url, { headers })).headers.get('etag') ?? '"0"';
const times: number[] = [];
let ok = 0;
let non2xx = 0;
const started = performance.now();
for (let i = 0; performance.now() - started < Number(seconds) * 1000; i++) {
  const sent = performance.now();
  const response = await fetch(url, { method: 'PATCH', headers: { ...headers, 'If-Match': etag }, body: body.replaceAll('[<id>]', `${process.pid}-${i}`) });
  await response.arrayBuffer();
  times.push(performance.now() - sent);
  if (response.ok) ok += 1;
  else non2xx += 1;
  etag = response.headers.get('etag') ?? etag;
}
console.log(JSON.stringify({ '2xx': ok, non2xx, errors: 0, duration: (performance.now() - started) / 1000, latency: { p50: percentile(times, 0.5), p99: percentile(times, 0.99) } }));
