// On PGlite (no cursors) a list is read in keyset batches. A filtered read may be answered through the filter's index,
// which finds every match again for each batch: its batches double, so 3,000 matches take 4 batches, not 15.
import { expect } from 'chai';
import type { FilterQuery, MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { viewRowBatches } from '../../src/crud/row-stream.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import type { Sighting } from '../../src/db/entities/sighting.entity.ts';
import { backend } from '../support/service.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

describe(`keyset batches of a filtered list (${backend})`, () => {
  let database: TestDatabase;
  let orm: MikroORM;
  before(async function () {
    // PostgreSQL reads one statement through a cursor instead.
    if (backend !== 'pglite') return this.skip();
    database = await openTestDatabase();
    ({ orm } = database);
    await (orm.em as SqlEntityManager).getConnection().execute(`insert into "sighting" ("sighting_memo", "vessel_id")
      select case when g % 2 = 0 then 'a comet seen' else 'a quiet night' end, -1 from generate_series(1, 6000) as g`);
  });
  after(async () => { await database?.close(); });

  const comets = { sightingMemo: { $like: '%comet%' } } as FilterQuery<Sighting>;

  async function batchesOf(filtered: boolean): Promise<{ sizes: number[]; ids: number[]; selects: number }> {
    database.statements.length = 0;
    const sizes: number[] = [];
    const ids: number[] = [];
    for await (const batch of viewRowBatches(orm.em, sighting, comets, { kind: 'list', view: 'list', filtered })) {
      sizes.push(batch.length);
      ids.push(...batch.map((row) => Number(row.sighting_id)));
    }
    return { sizes, ids, selects: database.statements.filter((operation) => operation === 'select').length };
  }

  it('when a filter picks 3,000 rows, then they come in id order in batches that double: 4 batches and one statement that finds no more', async () => {
    const { sizes, ids, selects } = await batchesOf(true);
    expect(sizes).to.deep.equal([200, 400, 800, 1600]);
    expect(ids).to.have.length(3000);
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).to.equal(3000);
    expect(selects).to.equal(5);
  });

  it('when the same rows are read as an unfiltered list is, then every batch is 200 rows: a short block of the event loop each', async () => {
    const { sizes, ids } = await batchesOf(false);
    expect(sizes).to.deep.equal(Array(15).fill(200));
    expect(new Set(ids).size).to.equal(3000);
  });
});
