// The measuring part of bench/failover.sh: load on two instances, the Patroni leader killed, the figures printed.
// Exits 1 when an acknowledged create is missing from the new primary, or when the cluster does not recover.
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { passwordToken } from './tokens.ts';
import { subscriber, writer, type Feed, type Write } from './failover-clients.ts';

interface Node { name: string; rest: string; patroniPidFile: string; dataDir: string }
const services = process.env.FAILOVER_SERVICES!.split(',');
const nodes = JSON.parse(process.env.FAILOVER_NODES!) as Node[];
const databaseUrl = process.env.FAILOVER_DATABASE_URL!;
const writers = Number(process.env.FAILOVER_WRITERS ?? 8);
/** Bounds: load before the kill, the wait for a new leader, load after the first write that succeeds again. */
const warmUpMs = 5000;
const leaderBoundMs = 60_000;
const afterRecoveryMs = 5000;

const isPrimary = (node: Node) =>
  fetch(`${node.rest}/primary`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status === 200, () => false);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// Each instance's embedded provider signs its own tokens: each client gets its token from the instance it calls.
const tokens = await Promise.all(services.map((url) => passwordToken(`${url}/realms/sighting`, 'alice')));
const writes: Write[] = [];
const feed: Feed = { created: new Set(), arrivals: [], reconnects: 0 };
let running = true;
let following = true;
// The stream is open before the first create: a stream opened without Last-Event-ID starts with the next event.
const following$ = subscriber(`${services[0]}/api`, tokens[0]!, () => following, feed);
while (!feed.opened) await delay(20);
const load = [
  ...Array.from({ length: writers },
    (_, i) => writer(`${services[i % services.length]}/api`, tokens[i % services.length]!, () => running, writes)),
  following$,
];
/** How long the subscriber may take, once the writers stopped, to receive every acknowledged create. */
const catchUpMs = 10_000;

let failed = false;
try {
  await delay(warmUpMs);
  const leader = (await Promise.all(nodes.map(async (node) => (await isPrimary(node)) && node))).find(Boolean);
  if (!leader) throw new Error('no leader before the kill');
  const patroniPid = Number(readFileSync(leader.patroniPidFile, 'utf8'));
  const postmasterPid = Number(readFileSync(`${leader.dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  const before = writes.filter((w) => w.status === 201).length;
  // Patroni first, so it cannot restart its postgres or hand the leader key over in order: the leader just dies.
  const killedAt = performance.now();
  process.kill(patroniPid, 'SIGKILL');
  process.kill(postmasterPid, 'SIGKILL');
  console.log(`failover: ${before} creates acknowledged by ${writers} writers in ${seconds(warmUpMs)}; ` +
    `killed ${leader.name} (Patroni ${patroniPid}, postgres ${postmasterPid})`);

  const others = nodes.filter((node) => node !== leader);
  let newLeaderAt: number | undefined;
  while (newLeaderAt === undefined && performance.now() - killedAt < leaderBoundMs) {
    if ((await Promise.all(others.map(isPrimary))).some(Boolean)) newLeaderAt = performance.now();
    else await delay(100);
  }
  if (newLeaderAt === undefined) throw new Error(`no new leader within ${seconds(leaderBoundMs)}`);
  const recovered = () => writes.find((w) => w.status === 201 && w.sentAt > newLeaderAt!);
  while (!recovered() && performance.now() - newLeaderAt < leaderBoundMs) await delay(100);
  const firstSuccess = recovered();
  if (!firstSuccess) throw new Error(`no create succeeded within ${seconds(leaderBoundMs)} of the new leader`);
  await delay(afterRecoveryMs);
  running = false;
  await Promise.all(load.slice(0, writers));

  const acknowledged = writes.filter((w) => w.status === 201).map((w) => w.id!);
  const failures = writes.filter((w) => w.status !== 201 && w.answeredAt > killedAt);
  const firstFailure = Math.min(...failures.map((w) => w.answeredAt));
  // A create sent after the first failure and acknowledged: the service writes again (answers to creates sent before
  // the kill may still arrive after the first failure).
  const firstSuccessAfterFailure =
    Math.min(...writes.filter((w) => w.status === 201 && w.sentAt > firstFailure).map((w) => w.answeredAt));
  const byStatus = Object.entries(Object.groupBy(failures, (w) => String(w.status)))
    .map(([status, list]) => `${list!.length}× ${status}`).join(', ');

  // Every acknowledged id, read back from the new primary (through HAProxy, which now routes to it).
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const found = new Set((await client.query<{ id: string }>('select sighting_id::text as id from sighting ' +
    'where sighting_id = any($1::bigint[])', [acknowledged])).rows.map((row) => Number(row.id)));
  await client.end();
  const lost = acknowledged.filter((id) => !found.has(id));

  for (const until = performance.now() + catchUpMs;
    acknowledged.some((id) => !feed.created.has(id)) && performance.now() < until;) await delay(100);
  following = false;
  await Promise.all(load);
  const nextEvent = feed.arrivals.find((at) => at > newLeaderAt!);
  const missed = writes.filter((w) => w.status === 201 && !feed.created.has(w.id!));
  const missedWhen = missed.length
    ? ` (acknowledged ${missed.map((w) => seconds(w.answeredAt - killedAt)).slice(0, 5).join(', ')}… from the kill)`
    : '';

  console.log(`failover: new leader ${seconds(newLeaderAt - killedAt)} after the kill; ` +
    `first create acknowledged again ${seconds(firstSuccess.answeredAt - killedAt)} after it`);
  const errorWindow = failures.length
    ? `${seconds(firstSuccessAfterFailure - firstFailure)} (first failed create ${seconds(firstFailure - killedAt)} ` +
      `after the kill, first successful one after it; ${byStatus})`
    : 'none (no create failed)';
  console.log(`error window: ${errorWindow}`);
  console.log(`acknowledged writes lost: ${lost.length} ` +
    `of ${acknowledged.length}${lost.length ? ` (ids ${lost.slice(0, 10).join(', ')}…)` : ''}`);
  const nextDelivery = nextEvent === undefined
    ? 'no event after the new leader' : `next event delivered ${seconds(nextEvent - newLeaderAt)} after the new leader`;
  console.log(`change feed: ${nextDelivery}; ${feed.reconnects} resume(s) with Last-Event-ID; ` +
    `acknowledged creates missed by the subscriber: ${missed.length}${missedWhen}`);
  failed = lost.length > 0 || nextEvent === undefined;
} catch (error) {
  console.error(`failover: ${(error as Error).message}`);
  failed = true;
} finally {
  running = false;
  following = false;
  await Promise.race([Promise.all(load), delay(20_000)]);
}
process.exit(failed ? 1 : 0);
