// The change feed under many subscribers, measured: the service's memory per open stream, and how long a create
// takes to reach every stream (from sending the create to the last stream's event). Prints figures, asserts nothing.
// Run: `npm run bench:feed` (PGlite in memory) or with DATABASE_URL (a scratch database made there and dropped after).
// Settings: FEED_STREAMS (1000), FEED_CREATES (30). The service runs on core 0, this process on core 1.
import { execFileSync } from 'node:child_process';
import { request, type ClientRequest } from 'node:http';
import { startServer, rssBytes } from '../bench/processes.ts';
import { createScratchDatabase } from '../test/support/scratch-database.ts';

const streams = Number(process.env.FEED_STREAMS ?? 1000);
const creates = Number(process.env.FEED_CREATES ?? 30);
execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
const service = await startServer('service', 'src/server.ts', {
  DATABASE_URL: scratch?.url ?? '', PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'true', EVENTS_MAX_SUBSCRIBERS: String(streams), RATE_LIMIT_PER_MINUTE: '1000000',
}, '0');
const token = await passwordToken('alice');
const open: ClientRequest[] = [];
/** Per record id: how many streams have read its `created` event, and when the last of them did. */
const seen = new Map<number, { streams: number; lastAt: number }>();

try {
  const before = await settledRss();
  await Promise.all(Array.from({ length: streams }, () => subscribe()));
  const after = await settledRss();
  console.log(`change feed, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, node ${process.version}\n`);
  console.log(`${streams} open streams: RSS ${mib(before)} → ${mib(after)} MiB, ${((after - before) / streams / 1024).toFixed(1)} KiB per stream`);

  const delivery: number[] = [];
  for (let i = 0; i < creates; i++) {
    const sent = performance.now();
    const answer = await fetch(`${service.url}/api/sighting`, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ sightingMemo: `feed capacity ${i}`, vessel: { vesselId: -1 } }),
    });
    const id = Number(answer.headers.get('Location')!.split('/').pop());
    while ((seen.get(id)?.streams ?? 0) < streams) await new Promise((resolve) => setTimeout(resolve, 1));
    delivery.push(seen.get(id)!.lastAt - sent);
  }
  delivery.sort((a, b) => a - b);
  const at = (q: number) => delivery[Math.min(delivery.length - 1, Math.floor(q * delivery.length))]!.toFixed(0);
  console.log(`a create reaching all ${streams} streams (${creates} creates, one at a time): p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms from sending it`);
} finally {
  for (const stream of open) stream.destroy();
  await service.stop();
  await scratch?.drop();
}

/** The smallest of ten readings a second apart: start-up's and garbage's peaks left out. */
async function settledRss(): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    readings.push(rssBytes(service.child.pid!));
  }
  return Math.min(...readings);
}

/** Opens one stream and counts, per record id, the streams that have read its `created` event. */
function subscribe(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}/api/sighting/events`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      resolve();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          if (!data || !/^event: created$/m.test(event)) continue;
          const id = (JSON.parse(data) as { id: number }).id;
          const entry = seen.get(id) ?? { streams: 0, lastAt: 0 };
          seen.set(id, { streams: entry.streams + 1, lastAt: performance.now() });
        }
      });
    });
    req.on('error', reject);
    req.end();
    open.push(req);
  });
}

async function passwordToken(user: string): Promise<string> {
  const answer = await fetch(`${service.url}/realms/sighting/protocol/openid-connect/token`, {
    method: 'POST', body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username: user, password: user }),
  });
  return (await answer.json() as { access_token: string }).access_token;
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
