// Losing the replica degrades to the primary: lists keep answering 200, never a 5xx, and the replica is used again once
// back.
import { expect } from 'chai';
import { apiClient } from '../support/api-client.ts';
import { createSighting } from '../support/fixtures.ts';
import { replication, replicaCluster, SKIP_REASON, startTwoInstances, waitForReplay,
  type TwoInstances } from '../support/replication.ts';
import { query } from '../support/sql.ts';
import { eventually } from '../support/condition.ts';

const setup = replication();
const routed = async (url: string, target: 'replica' | 'primary') =>
  Number(/^db_reads_routed_total\{kind="list",target="(\w+)"\} (\d+)/m
    .exec((await (await fetch(`${url}/metrics`)).text()).split('\n')
      .filter((line) => line.includes(`target="${target}"`) && line.includes('kind="list"')).join('\n'))?.[2] ?? 0);

const failures = async (url: string) =>
  Number(/^db_replica_failures_total (\d+)/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? 0);

describe('losing the replica (two instances, primary + replica)', function () {
  let both: TwoInstances;
  let stopped = false;

  before(async function () {
    if (!setup) {
      console.warn(`    ${SKIP_REASON}`);
      return this.skip();
    }
    // The replica's failures are logged as warnings on purpose; the test output needs only errors.
    both = await startTwoInstances(setup, { REPLICA_RETRY_MS: '1000', LOG_LEVEL: 'error' });
  });
  after(async function () {
    if (stopped) await replicaCluster(setup!, 'start');
    await both?.stop();
  });

  it('when the replica is stopped, then lists through both instances answer 200 from the primary, ' +
    'and after it is back they use it again', async function () {
    const id = await createSighting(both.a);
    await waitForReplay(setup!);
    const clients = [await apiClient(both.a), await apiClient(both.b)];
    // Warm: both instances hold pooled connections to the replica, which the stop will break.
    for (const client of clients) expect((await client.GET('/sighting')).response.status).to.equal(200);

    await replicaCluster(setup!, 'stop');
    stopped = true;
    const statuses: number[] = [];
    const round = async () => {
      for (const client of clients) {
        const list = await client.GET('/sighting', { params: { query: { sightingId: id } as never } });
        statuses.push(list.response.status);
        expect(list.data?.map((s) => s.sightingId)).to.deep.equal([id]);
        const found = await client.POST('/sighting/qbe', { body: { sightingId: id } });
        statuses.push(found.response.status);
      }
    };
    await round();
    const firstFailures = await Promise.all([failures(both.a.url), failures(both.b.url)]);
    expect(firstFailures.every((count) => count > 0)).to.equal(true);
    // Rounds until each instance has tried the replica again after REPLICA_RETRY_MS and failed once more: the
    // retries are answered from the primary too.
    await eventually(async () => {
      await round();
      const now = await Promise.all([failures(both.a.url), failures(both.b.url)]);
      return now.every((count, i) => count > firstFailures[i]!);
    }, { what: 'a retry of the stopped replica by each instance' });
    expect(statuses.filter((status) => status !== 200)).to.deep.equal([]);

    await replicaCluster(setup!, 'start');
    stopped = false;
    await eventually(async () => (await query<{ r: boolean }>(setup!.replicaUrl, 'select pg_is_in_recovery() as r')
      .catch(() => []))[0]?.r, { what: 'the replica back in recovery' });
    // After REPLICA_RETRY_MS, and once its lag is measured within DB_REPLICA_MAX_LAG_MS, the replica answers again.
    await eventually(async () => {
      const before = await routed(both.b.url, 'replica');
      expect((await clients[1]!.GET('/sighting')).response.status).to.equal(200);
      return await routed(both.b.url, 'replica') === before + 1;
    }, { what: 'a list read from the replica again' });
  });
});
