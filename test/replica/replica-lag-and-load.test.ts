// Replica routing that knows lag and load: a replica paused behind the primary gets no reads until it catches up,
// and a busy replica pool is no failed replica.
import { expect } from 'chai';
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { createSighting } from '../support/fixtures.ts';
import { tokenFor } from '../support/tokens.ts';
import { replication, SKIP_REASON, startTwoInstances, waitForReplay,
  type TwoInstances } from '../support/replication.ts';
import { query } from '../support/sql.ts';
import { samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';

const setup = replication();
const maxLagMs = 5000;

/** Until `check` holds, within a deadline: the lag is measured now and then, on a machine that may be busy. */
const waitUntil = (check: () => Promise<boolean>) => eventually(check, { what: 'the replica lag as expected' });

describe('replica lag and load (primary + replica)', function () {
  let both: TwoInstances;
  let paused = false;

  before(async function () {
    if (!setup) {
      console.warn(`    ${SKIP_REASON}`);
      return this.skip();
    }
    // A list whose reader pauses keeps its connection (by default it gives it back after a second): the slow reader
    // below.
    // The lag allowed is far above what a loaded machine's replay of a just-committed write takes: WAL that is no
    // transaction (a vacuum's, a checkpoint's) shows as the time since the last transaction replayed
    // (src/db/replica-lag.ts), and at 300 ms it sent the second test's page to the primary on a loaded CI host.
    both = await startTwoInstances(setup, { DB_REPLICA_MAX_LAG_MS: String(maxLagMs), DB_POOL_MAX: '1',
      DB_ACQUIRE_TIMEOUT_MS: '500', LOG_LEVEL: 'error', STREAM_IDLE_RELEASE_MS: '600000' });
  });
  after(async function () {
    if (paused) await query(both.replicaDbUrl, 'select pg_wal_replay_resume()');
    await both?.stop();
  });

  it('when the replica\'s replay is paused behind a write, then lists go to the primary and show the write, ' +
    'the lag gauge says so, and once it resumes lists go to the replica again', async function () {
    const { a } = both;
    const token = await tokenFor(a.realm, 'alice');
    const listOf = async (id: number) => {
      const response =
        await fetch(`${a.api}/sighting?sightingId=${id}`, { headers: { Authorization: `Bearer ${token}` } });
      return (await response.json() as Array<{ sightingId: number }>).map((s) => s.sightingId);
    };
    const routed = async (target: string) =>
      (await samples(a.url, 'db_reads_routed_total')).get(`{kind="list",target="${target}"}`) ?? 0;

    await query(both.replicaDbUrl, 'select pg_wal_replay_pause()');
    paused = true;
    const id = await createSighting(a);
    await waitUntil(async () =>
      ((await samples(a.url, 'db_replica_lag_seconds')).get('{replica="replica-1"}') ?? 0) > maxLagMs / 1000);

    const onPrimary = await routed('primary');
    expect(await listOf(id), 'read from the primary, so the new sighting is there').to.deep.equal([id]);
    expect(await routed('primary')).to.equal(onPrimary + 1);

    await query(both.replicaDbUrl, 'select pg_wal_replay_resume()');
    paused = false;
    await waitForReplay(setup!);
    await waitUntil(async () => (await samples(a.url, 'db_replica_lag_seconds')).get('{replica="replica-1"}') === 0);
    const onReplica = await routed('replica');
    expect(await listOf(id)).to.deep.equal([id]);
    expect(await routed('replica')).to.equal(onReplica + 1);
  });

  it('when the replica pool\'s one connection is held by a slow reader, then another list waits, ' +
    'is answered by the primary, and is counted as an acquire timeout, not a replica failure', async function () {
    const { b } = both;
    // Enough rows (about 20 MB of list) that a list whose reader stops reading keeps its cursor, and the replica
    // connection, open.
    // No vacuum of those rows while the test runs: its WAL would put the replica behind again for a moment.
    await query(both.primaryDbUrl, 'alter table sighting set (autovacuum_enabled = false)');
    await query(both.primaryDbUrl,
      `insert into sighting (sighting_memo, vessel_id) select 'mm', -1 from generate_series(1, 200000)`);
    await waitForReplay(setup!);
    // The insert put the replica behind for a moment: lists go to it again once b has measured it caught up.
    await waitUntil(async () => (await samples(b.url, 'db_replica_lag_seconds')).get('{replica="replica-1"}') === 0);
    const token = await tokenFor(b.realm, 'alice');
    const before = { failures: (await samples(b.url, 'db_replica_failures_total')).get('') ?? 0,
      timeouts: (await samples(b.url, 'db_acquire_timeouts_total')).get('{target="replica"}') ?? 0 };

    // The slow reader: the list starts streaming, then the client stops reading.
    const agent = new Agent({ keepAlive: false });
    let slow: ClientRequest | undefined;
    const streaming = new Promise<IncomingMessage>((resolve) => {
      slow = request(`${b.api}/sighting`, { agent, headers: { Authorization: `Bearer ${token}` } },
        (response) => { response.pause(); resolve(response); });
      slow.end();
    });
    const held = await streaming;
    expect(held.statusCode).to.equal(200);

    const page = await fetch(`${b.api}/sighting?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
    expect(page.status).to.equal(200);
    const after = { failures: (await samples(b.url, 'db_replica_failures_total')).get('') ?? 0,
      timeouts: (await samples(b.url, 'db_acquire_timeouts_total')).get('{target="replica"}') ?? 0 };
    expect(after).to.deep.equal({ failures: before.failures, timeouts: before.timeouts + 1 });
    slow!.destroy();
    agent.destroy();
  });
});
