// Long reads on PGlite, which has no cursors: the service refreshes the planner's statistics itself, as PGlite runs no
// autovacuum (src/db/pglite-statistics.ts), a batch continues from the last row's id by the index
// (src/crud/read/list-order.ts), and a sorted read takes the ids in order first (src/crud/read/row-stream.ts).
// So a query by example over many matches and a sorted list read each row a few times, where they had read the
// whole table once for every batch of 200.
import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { eventually } from '../support/condition.ts';

describe('long reads on the embedded database (pglite)', function () {
  const records = 20_000;
  let service: TestService;
  let em: SqlEntityManager;
  let insertStarted: Date;

  before(async function () {
    if (backend !== 'pglite') return this.skip(); // PostgreSQL's autovacuum does this itself.
    service = await startService();
    em = service.web.orm.em.fork() as SqlEntityManager;
    // Every third memo holds the word: far more matches than one batch of 200. Dates repeat, every fifth is missing.
    insertStarted = new Date();
    await bulkInsert(service, records, (first, last) => `insert into sighting (sighting_memo, vessel_id, sighting_date)
      select case when g % 3 = 0 then 'a comet ' || g else 'plain ' || g end, -1,
        case when g % 5 = 0 then null else timestamp '2026-01-01' + (g % 977) * interval '1 minute' end
      from generate_series(${first}, ${last}) g`);
  });
  after(async () => { await service?.stop(); });

  /**
   * The table's counters, with every statement so far counted: PostgreSQL reports them at most once a second otherwise.
   */
  async function sightingStatistics() {
    await em.execute('select pg_stat_force_next_flush()');
    const [row] = await em.execute<{ changed: number; reads: number; analyzed: string | null }[]>(
      `select n_mod_since_analyze as changed, seq_tup_read + coalesce(idx_tup_fetch, 0) as reads,
      last_analyze as analyzed from pg_stat_user_tables where relname = 'sighting'`);
    return row!;
  }

  it('when a table grows by more than autovacuum\'s threshold, then the service analyzes it', async () => {
    // Analyzed since the insert began (on a loaded machine the service's check may come between its slices): the
    // rows it added are no longer all counted as changed since the last analyze.
    await eventually(async () => {
      const statistics = await sightingStatistics();
      return statistics.analyzed !== null && new Date(statistics.analyzed) >= insertStarted
        && statistics.changed < records;
    }, { what: 'an analyze of the sighting table since the insert' });
  });

  it('when a query by example matches thousands of records, ' +
    'then the database reads each row a few times at most, not once per batch', async () => {
    const before = Number((await sightingStatistics()).reads);
    const response = await fetch(`${service.api}/sighting/qbe`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`,
        'Content-Type': 'application/json' },
      body: JSON.stringify({ sightingMemo: 'comet' }),
    });
    const found = await response.json() as unknown[];
    const read = Number((await sightingStatistics()).reads) - before;

    expect(found).to.have.length(Math.floor(records / 3));
    // Read in batches of 200 from where the last one ended: about the table once. Planned for the demo data's few
    // rows, or walked from the index's first entry for every batch, it was the table once per batch (some 33 times
    // here).
    expect(read).to.be.below(3 * records);
  });

  it('when the whole list is read sorted by a field, ' +
    'then it comes in that order, nulls last and ties by id, each row read a few times at most', async () => {
    const before = Number((await sightingStatistics()).reads);
    const response = await fetch(`${service.api}/sighting?sort=-sightingDate`,
      { headers: { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` } });
    const rows = await response.json() as { sightingId: number; sightingDate: string | null }[];
    const read = Number((await sightingStatistics()).reads) - before;

    expect(rows.length).to.be.above(records);
    const later = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
      (a.sightingDate === b.sightingDate ? a.sightingId - b.sightingId
        : a.sightingDate === null ? 1 : b.sightingDate === null ? -1 : b.sightingDate.localeCompare(a.sightingDate));
    expect(rows.map((row) => row.sightingId)).to.deep.equal([...rows].sort(later).map((row) => row.sightingId));
    // The ids in order once, then each batch's rows by id: twice the table. A keyset per batch sorted it all every
    // time.
    expect(read).to.be.below(4 * records);
  });
});
