// Two instances on a primary + streaming replica: what one writes the other reads; lists come from the replica.
import { expect } from 'chai';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, createSighting } from '../support/fixtures.ts';
import { replication, SKIP_REASON, startTwoInstances, waitForReplay,
  type TwoInstances } from '../support/replication.ts';
import { query } from '../support/sql.ts';

const setup = replication();

describe('replica reads (two instances, primary + replica)', function () {
  let both: TwoInstances;

  before(async function () {
    if (!setup) {
      console.warn(`    ${SKIP_REASON}`);
      return this.skip();
    }
    both = await startTwoInstances(setup);
  });
  after(async () => { await both?.stop(); });

  it('when a sighting is created through instance a, then b reads it by id at once (also If-None-Match: 304), ' +
    'and lists it once the replica has replayed it', async () => {
    const body = buildSighting({ sightingTimezone: 'Europe/Berlin' });
    const id = await createSighting(both.a, body);
    const b = await apiClient(both.b);

    // A record is read from the primary: no replication lag, whichever instance answers.
    const read = await b.GET('/sighting/{id}', { params: { path: { id } } });
    expect({ status: read.response.status, etag: read.response.headers.get('ETag'), memo: read.data?.sightingMemo })
      .to.deep.equal({ status: 200, etag: '"0"', memo: body.sightingMemo });
    const unchanged = await b.GET('/sighting/{id}', { params: { path: { id } }, headers: { 'If-None-Match': '"0"' } });
    expect(unchanged.response.status).to.equal(304);

    // A list may lag by the replication delay (openapi.yaml says so): wait for replay, as the contract allows.
    await waitForReplay(setup!);
    const list = await b.GET('/sighting', { params: { query: { sightingId: id } as never } });
    expect(list.data).to.deep.equal([{ sightingId: id, vessel: { vesselId: -1, vesselName: 'Klingon Warbird' },
      sightingTimezone: 'Europe/Berlin', sightingDate: null }]);
  });

  it('when lists and queries by example are asked, ' +
    'then the replica answers them, as its own statistics show', async function () {
    const scans = async (url: string) => Number((await query<{ scans: string }>(url,
      "select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans from pg_stat_user_tables " +
        "where relname = 'sighting'"))[0]?.scans ?? 0);
    const before = await scans(both.replicaDbUrl);
    const a = await apiClient(both.a);
    const b = await apiClient(both.b);

    // Statistics reach the view when a backend ends a transaction a second after its last report: keep asking.
    let after = before;
    let lists = 0;
    for (const deadline = Date.now() + 30_000; after < before + 4 && Date.now() < deadline;) {
      expect((await b.GET('/sighting')).response.status).to.equal(200);
      expect((await a.POST('/sighting/qbe', { body: { sightingMemo: 'unheimlich' } })).response.status).to.equal(200);
      lists += 2;
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      after = await scans(both.replicaDbUrl);
    }
    expect(after - before, `the replica's scans of table sighting after ${lists} lists and queries`).to.be.at.least(4);
    const metrics = await (await fetch(`${both.b.url}/metrics`)).text();
    expect(metrics).to.match(/^db_reads_routed_total\{kind="list",target="replica"\} [1-9]/m);
  });
});
