// A list's statement is built once per shape of its conditions and later requests of that shape only bind their
// values (src/crud/read/statement-shapes.ts): the values must land where the builder put them, or rows would be wrong.
import { expect } from 'chai';
import type { FilterQuery } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { listStatement } from '../../src/crud/read/statement-shapes.ts';
import { viewQuery } from '../../src/crud/view-rows.ts';
import { keysetAfter, listOrder, orderBy } from '../../src/crud/read/list-order.ts';
import { runNamed } from '../../src/db/named-statements.ts';
import type { ViewRow } from '../../src/crud/resource-descriptor.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

type Where = FilterQuery<object>;

describe('list statements by the shape of their conditions', () => {
  let database: TestDatabase;
  let em: SqlEntityManager;
  const keys = () => listOrder(em, sighting, '-sightingDate');

  before(async () => {
    database = await openTestDatabase();
    em = database.orm.em as SqlEntityManager;
    const date = (i: number) => (i % 4 ? `'2026-0${1 + (i % 5)}-01 10:00'` : 'null');
    const rows = Array.from({ length: 12 }, (_, i) => `('shape ${i % 3}', ${i % 2 ? -1 : -2}, ${date(i)}, 'shapes')`);
    const columns = '"sighting_memo", "vessel_id", "sighting_date", "creator"';
    await em.getConnection().execute(`insert into "sighting" (${columns}) values ${rows.join(', ')}`);
  });

  after(() => database.close());

  /** The same read as the QueryBuilder runs it, built anew each time. */
  const built = async (where: Where, limit: number) => await viewQuery(em, sighting, structuredClone(where) as never,
    'list').orderBy(orderBy(keys())).limit(limit).execute('all', false) as ViewRow[];
  const bound = async (where: Where, limit: number) => {
    const copy = structuredClone(where) as never;
    const { statement, params } = listStatement(em, sighting, copy, 'list', keys(), limit, 'write');
    return { statement, rows: await runNamed<ViewRow>(em, statement, params) };
  };
  // As numbers: the named run reads int8 as one (src/db/named-statements.ts), the QueryBuilder as its text.
  const ids = (rows: readonly ViewRow[]) => rows.map((row) => Number(row.sighting_id));

  it('when two requests of one shape carry other values, then the second reuses the text, with its rows', async () => {
    const first = await bound({ vessel: { $eq: -1 }, sightingDate: { $gte: '2026-02-01T00:00' } }, 3);
    const where = { vessel: { $eq: -2 }, sightingDate: { $gte: '2026-01-01T00:00' } };
    const second = await bound(where, 2);
    expect(second.statement).to.equal(first.statement);
    expect(ids(second.rows)).to.deep.equal(ids(await built(where, 2)));
    expect(second.rows).to.have.length(2);
    expect(second.rows.map((row) => Number(row.vessel_id))).to.deep.equal([-2, -2]);
  });

  it('when a keyset continues after a row with a date and after one without, then each reads on', async () => {
    const after = [['2026-03-01T10:00', 0], [null, 0], ['2026-02-01T10:00', 0], [null, Number.MAX_SAFE_INTEGER]];
    for (const values of after) {
      const where = { $and: [{ sightingMemo: { $ilike: '%shape%' } }, keysetAfter(keys(), values)] };
      expect(ids((await bound(where, 4)).rows)).to.deep.equal(ids(await built(where, 4)));
    }
  });

  it('when a request\'s values equal each other, then its rows are its own, and the next one\'s too', async () => {
    // The id equal to the limit: which parameter is which cannot be told from this request, so its shape is not kept.
    const equal = { sightingId: { $gt: 3 } };
    expect(ids((await bound(equal, 3)).rows)).to.deep.equal(ids(await built(equal, 3)));
    const other = { sightingId: { $gt: 1 } };
    expect(ids((await bound(other, 4)).rows)).to.deep.equal(ids(await built(other, 4)));
  });
});
