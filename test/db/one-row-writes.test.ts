// A one-row record's create, replacement and delete are one statement each: the row and its history entry in one round
// trip, the entry holding the view row as the resource's view query reads it, and nothing written when the row is
// refused.
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { byIdStatement, readOwnedRow } from '../../src/crud/view-rows.ts';
import { isOneRow } from '../../src/crud/write/record-history.ts';
import { createWithHistory, deleteWithHistory, replaceWithHistory, rowState } from '../../src/crud/write/row-writes.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import vessel from '../../src/resources/vessel.resource.ts';
import timezone from '../../src/resources/timezone.resource.ts';
import { backend } from '../support/service.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

describe(`a one-row record's create, replacement and delete (${backend})`, () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let statements: string[];
  before(async () => {
    database = await openTestDatabase();
    ({ orm, statements } = database);
  });
  after(async () => { await database?.close(); });

  const query = (sql: string, params: unknown[] = []) =>
    (orm.em as SqlEntityManager).getConnection().execute(sql, params);
  /** A sighting's columns from a body, as the create handler makes them: the descriptor's values and the owner. */
  function newSighting(body: Record<string, unknown>) {
    return { em: orm.em, data: { ...sighting.values(body), creator: 'subject-1' } };
  }

  it('when the resources are asked, ' +
    'then sightings and time zones are one row each, a vessel (with its names) is not', () => {
    expect([sighting, timezone, vessel].map((resource) => isOneRow(orm.em, resource)))
      .to.deep.equal([true, true, false]);
  });

  it('when a sighting is created, then it takes one statement, ' +
    'and its entry holds the view row of version 0 with its scope and author', async () => {
    const { em, data } = newSighting({ sightingMemo: 'one statement', vessel: { vesselId: -1 },
      sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-25T10:00' });
    statements.length = 0;
    const created = await createWithHistory(em, sighting, data, 'alice');
    expect(statements).to.deep.equal(['with']);
    expect(created.version).to.equal(0);
    const [entry] = await query('select "version", "change", "changed_by", "scope", "row", "changed_at" is not null ' +
      'as "dated" from "record_change" where "collection" = ? and "record_id" = ?', ['sighting', created.id]);
    // As an update's entry is written: the by-id view query's row, made JSON by the database.
    const [view] =
      await query(`select to_jsonb("v") as "row" from (${byIdStatement(orm.em, sighting)}) as "v"`, [created.id]);
    expect(entry).to.deep.equal({ version: 0, change: 'created', changed_by: 'alice', scope: { vesselId: [-1] },
      row: view!.row, dated: true });
    expect(view!.row).to.include({ sighting_memo: 'one statement', sighting_timezone: 'Europe/Berlin',
      sighting_date: '2026-11-25T10:00:00', version: 0 });
  });

  it('when the vessel does not exist, ' +
    'then the foreign key refuses the statement, and neither the row nor an entry is written', async () => {
    const count = async () => (await query('select (select count(*) from "sighting")::int as "sightings", ' +
      '(select count(*) from "record_change")::int as "entries"'))[0];
    const before = await count();
    const { em, data } = newSighting({ sightingMemo: 'no such vessel', vessel: { vesselId: 999_999 } });
    const error =
      await createWithHistory(em, sighting, data, 'alice').then(() => undefined, (failure: unknown) => failure);
    expect((error as Error | undefined)?.constructor.name).to.equal('ForeignKeyConstraintViolationException');
    expect(await count()).to.deep.equal(before);
  });

  /**
   * A sighting created, and the columns of a replacement, as a PUT's handler has them (the descriptor's values alone).
   */
  async function existingSighting(memo: string, body: Record<string, unknown>) {
    const created = newSighting({ sightingMemo: memo, vessel: { vesselId: -1 } });
    const { id } = await createWithHistory(created.em, sighting, created.data, 'alice');
    return { em: orm.em, data: sighting.values(body), id };
  }
  const entries = async (id: number) => query('select "version", "change", "changed_by", "scope", "row" ' +
    'from "record_change" where "collection" = ? and "record_id" = ? order by "event_id"', ['sighting', id]);

  it('when a sighting is replaced, then it takes one statement, raises the version, ' +
    'and its entry holds the new view row and both scopes', async () => {
    const { em, data, id } = await existingSighting('to be moved', { sightingMemo: 'moved', vessel: { vesselId: -2 },
      sightingTimezone: 'Asia/Tokyo', sightingDate: '2026-11-25T10:00' });
    statements.length = 0;
    expect(await replaceWithHistory(em, sighting, data, id, 0, { changedBy: 'bob', owner: 'subject-1' })).to.equal(1);
    expect(statements).to.deep.equal(['with']);
    const [view] = await query(`select to_jsonb("v") as "row" from (${byIdStatement(orm.em, sighting)}) as "v"`, [id]);
    expect((await entries(id)).at(-1)).to.deep.equal({ version: 1, change: 'updated', changed_by: 'bob',
      scope: { vesselId: [-1, -2] }, row: view!.row });
    expect(view!.row).to.include({ sighting_memo: 'moved', vessel_id: -2, sighting_timezone: 'Asia/Tokyo',
      sighting_date: '2026-11-25T10:00:00', version: 1 });
    expect((await query('select "creator" from "sighting" where "sighting_id" = ?', [id]))[0])
      .to.deep.equal({ creator: 'subject-1' });
  });

  it('when a replacement changes nothing, then its one statement keeps the version and writes no entry', async () => {
    const { em, data, id } = await existingSighting('unchanged',
      { sightingMemo: 'unchanged', vessel: { vesselId: -1 }, sightingTimezone: null, sightingDate: null });
    statements.length = 0;
    expect(await replaceWithHistory(em, sighting, data, id, 0, { changedBy: 'bob' })).to.equal(0);
    expect(statements).to.deep.equal(['with']);
    expect((await entries(id)).map((entry) => entry.change)).to.deep.equal(['created']);
  });

  it('when the stated version is stale, or the caller is not the owner, ' +
    'then the replacement matches nothing and writes nothing; the row state tells why', async () => {
    const { em, data, id } = await existingSighting('raced',
      { sightingMemo: 'mine', vessel: { vesselId: -1 }, sightingTimezone: null, sightingDate: null });
    await query('update "sighting" set "sighting_memo" = ?, "version" = "version" + 1 where "sighting_id" = ?',
      ['the other writer', id]);
    statements.length = 0;
    expect(await replaceWithHistory(em, sighting, data, id, 0, { changedBy: 'bob' })).to.equal(undefined);
    expect(await replaceWithHistory(em, sighting, data, id, 1, { changedBy: 'bob', owner: 'someone-else' }))
      .to.equal(undefined);
    expect(await rowState(em, sighting, id)).to.deep.equal({ version: 1, owner: 'subject-1' });
    expect(statements).to.deep.equal(['with', 'with', 'select']);
    const [row] = await query('select "sighting_memo", "version" from "sighting" where "sighting_id" = ?', [id]);
    expect(row).to.deep.equal({ sighting_memo: 'the other writer', version: 1 });
    expect((await entries(id)).map((entry) => entry.change)).to.deep.equal(['created']);
    expect(await rowState(em, sighting, 999_999)).to.equal(undefined);
  });

  it('when a replacement names a vessel that does not exist, ' +
    'then the foreign key refuses it and nothing is written', async () => {
    const { em, data, id } = await existingSighting('kept',
      { sightingMemo: 'kept', vessel: { vesselId: 999_999 }, sightingTimezone: null, sightingDate: null });
    const error = await replaceWithHistory(em, sighting, data, id, 0, { changedBy: 'bob' })
      .then(() => undefined, (failure: unknown) => failure);
    expect((error as Error | undefined)?.constructor.name).to.equal('ForeignKeyConstraintViolationException');
    expect((await query('select "vessel_id"::int as "vessel_id", "version" from "sighting" where "sighting_id" = ?',
      [id]))[0]).to.deep.equal({ vessel_id: -1, version: 0 });
    expect((await entries(id)).map((entry) => entry.change)).to.deep.equal(['created']);
  });

  it('when a merge patch reads the record, then one statement answers its view row and its owner', async () => {
    const { id } = await existingSighting('read before the patch', { sightingMemo: 'x', vessel: { vesselId: -1 } });
    statements.length = 0;
    const row = await readOwnedRow(orm.em, sighting, id);
    expect(statements).to.deep.equal(['select']);
    expect(row).to.include({ sighting_memo: 'read before the patch', version: 0, __owner: 'subject-1' });
  });

  it('when a sighting is deleted, ' +
    'then it takes one statement, and its entry keeps the version it had and its scope, without a row', async () => {
    const { em, id } = await existingSighting('to be deleted', { sightingMemo: 'x', vessel: { vesselId: -1 } });
    statements.length = 0;
    expect(await deleteWithHistory(em, sighting, id, 1, { changedBy: 'bob' })).to.equal(false);
    expect(await deleteWithHistory(em, sighting, id, 0, { changedBy: 'bob', owner: 'someone-else' })).to.equal(false);
    expect(await deleteWithHistory(em, sighting, id, 0, { changedBy: 'bob', owner: 'subject-1' })).to.equal(true);
    expect(statements).to.deep.equal(['with', 'with', 'with']);
    expect((await entries(id)).at(-1))
      .to.deep.equal({ version: 0, change: 'deleted', changed_by: 'bob', scope: { vesselId: [-1] }, row: null });
    expect(await rowState(em, sighting, id)).to.equal(undefined);
  });

  it('when a time zone (no feed filters) is replaced and deleted, ' +
    'then each is one statement with an empty scope', async () => {
    const em = orm.em;
    const { id } =
      await createWithHistory(em, timezone, timezone.values({ timezoneName: 'Mars/Olympus_Mons' }), 'alice');
    statements.length = 0;
    expect(await replaceWithHistory(em, timezone, timezone.values({ timezoneName: 'Mars/Gale_Crater' }), id, 0,
      { changedBy: 'bob' })).to.equal(1);
    expect(await deleteWithHistory(em, timezone, id, undefined, { changedBy: 'bob' })).to.equal(true);
    expect(statements).to.deep.equal(['with', 'with']);
    const changes = await query('select "version", "change", "scope" from "record_change" where "collection" = ? ' +
      'and "record_id" = ? order by "event_id"', ['timezone', id]);
    expect(changes).to.deep.equal([{ version: 0, change: 'created', scope: {} },
      { version: 1, change: 'updated', scope: {} }, { version: 1, change: 'deleted', scope: {} }]);
  });
});
