// A one-row record's create and update are one statement each: the row and its history entry in one round trip, the
// entry holding the view row as the resource's view query reads it, and nothing written when the row is refused.
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { byIdStatement } from '../../src/crud/view-rows.ts';
import { createWithHistory, isOneRow, scopeOf, updateWithHistory } from '../../src/crud/record-history.ts';
import { Sighting } from '../../src/db/entities/sighting.entity.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import vessel from '../../src/resources/vessel.resource.ts';
import timezone from '../../src/resources/timezone.resource.ts';
import { backend } from '../support/service.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

describe(`a one-row record's create and update (${backend})`, () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let statements: string[];
  before(async () => {
    database = await openTestDatabase();
    ({ orm, statements } = database);
  });
  after(async () => { await database?.close(); });

  const query = (sql: string, params: unknown[] = []) => (orm.em as SqlEntityManager).getConnection().execute(sql, params);
  async function newSighting(body: Record<string, unknown>) {
    const em = orm.em.fork();
    const entity = em.create(Sighting, {} as never, { persist: false });
    entity.creator = 'subject-1';
    await sighting.write(entity, body, { em, locale: 'en' });
    return { em, entity };
  }

  it('when the resources are asked, then sightings and time zones are one row each, a vessel (with its names) is not', () => {
    expect([sighting, timezone, vessel].map((resource) => isOneRow(orm.em, resource))).to.deep.equal([true, true, false]);
  });

  it('when a sighting is created, then it takes one statement, and its entry holds the view row of version 0 with its scope and author', async () => {
    const { em, entity } = await newSighting({ sightingMemo: 'one statement', vessel: { vesselId: -1 }, sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-25T10:00' });
    statements.length = 0;
    const created = await createWithHistory(em, sighting, entity, 'alice');
    expect(statements).to.deep.equal(['with']);
    expect(created.version).to.equal(0);
    const [entry] = await query('select "version", "change", "changed_by", "scope", "row", "changed_at" is not null as "dated" from "record_change" where "collection" = ? and "record_id" = ?', ['sighting', created.id]);
    // As an update's entry is written: the by-id view query's row, made JSON by the database.
    const [view] = await query(`select to_jsonb("v") as "row" from (${byIdStatement(orm.em, sighting)}) as "v"`, [created.id]);
    expect(entry).to.deep.equal({ version: 0, change: 'created', changed_by: 'alice', scope: { vesselId: [-1] }, row: view!.row, dated: true });
    expect(view!.row).to.include({ sighting_memo: 'one statement', sighting_timezone: 'Europe/Berlin', sighting_date: '2026-11-25T10:00:00', version: 0 });
  });

  it('when the vessel does not exist, then the foreign key refuses the statement, and neither the row nor an entry is written', async () => {
    const count = async () => (await query('select (select count(*) from "sighting")::int as "sightings", (select count(*) from "record_change")::int as "entries"'))[0];
    const before = await count();
    const { em, entity } = await newSighting({ sightingMemo: 'no such vessel', vessel: { vesselId: 999_999 } });
    const error = await createWithHistory(em, sighting, entity, 'alice').then(() => undefined, (failure: unknown) => failure);
    expect((error as Error | undefined)?.constructor.name).to.equal('ForeignKeyConstraintViolationException');
    expect(await count()).to.deep.equal(before);
  });

  /** A sighting created and loaded again in a new unit of work, as an update's handler has it, with its state before. */
  async function loadedSighting(memo: string) {
    const created = await newSighting({ sightingMemo: memo, vessel: { vesselId: -1 } });
    const { id } = await createWithHistory(created.em, sighting, created.entity, 'alice');
    const em = orm.em.fork();
    const entity = await em.findOneOrFail(Sighting, id);
    return { em, entity, id, before: { version: entity.version, scope: scopeOf(em, sighting, entity) } };
  }
  const entries = async (id: number) => query('select "version", "change", "changed_by", "scope", "row" from "record_change" where "collection" = ? and "record_id" = ? order by "version"', ['sighting', id]);

  it('when a loaded sighting is changed, then the update takes one statement, raises the version, and its entry holds the new view row and both scopes', async () => {
    const { em, entity, id, before } = await loadedSighting('to be moved');
    await sighting.write(entity, { sightingMemo: 'moved', vessel: { vesselId: -2 }, sightingTimezone: 'Asia/Tokyo', sightingDate: '2026-11-25T10:00' }, { em, locale: 'en' });
    statements.length = 0;
    expect(await updateWithHistory(em, sighting, entity, 'bob', before)).to.equal(1);
    expect(statements).to.deep.equal(['with']);
    const [view] = await query(`select to_jsonb("v") as "row" from (${byIdStatement(orm.em, sighting)}) as "v"`, [id]);
    expect((await entries(id)).at(-1)).to.deep.equal({ version: 1, change: 'updated', changed_by: 'bob', scope: { vesselId: [-1, -2] }, row: view!.row });
    expect(view!.row).to.include({ sighting_memo: 'moved', vessel_id: -2, sighting_timezone: 'Asia/Tokyo', sighting_date: '2026-11-25T10:00:00', version: 1 });
  });

  it('when nothing changes, then no statement runs, no entry is written, and the version stays', async () => {
    const { em, entity, id, before } = await loadedSighting('unchanged');
    await sighting.write(entity, { sightingMemo: 'unchanged', vessel: { vesselId: -1 }, sightingTimezone: null, sightingDate: null }, { em, locale: 'en' });
    statements.length = 0;
    expect(await updateWithHistory(em, sighting, entity, 'bob', before)).to.equal(0);
    expect(statements).to.deep.equal([]);
    expect((await entries(id)).map((entry) => entry.change)).to.deep.equal(['created']);
  });

  it('when the record changed after it was loaded, then the update is an optimistic lock failure and writes nothing', async () => {
    const { em, entity, id, before } = await loadedSighting('raced');
    await query('update "sighting" set "sighting_memo" = ?, "version" = "version" + 1 where "sighting_id" = ?', ['the other writer', id]);
    await sighting.write(entity, { sightingMemo: 'mine', vessel: { vesselId: -1 }, sightingTimezone: null, sightingDate: null }, { em, locale: 'en' });
    const error = await updateWithHistory(em, sighting, entity, 'bob', before).then(() => undefined, (failure: unknown) => failure);
    expect((error as Error | undefined)?.constructor.name).to.equal('OptimisticLockError');
    const [row] = await query('select "sighting_memo", "version" from "sighting" where "sighting_id" = ?', [id]);
    expect(row).to.deep.equal({ sighting_memo: 'the other writer', version: 1 });
    expect((await entries(id)).map((entry) => entry.change)).to.deep.equal(['created']);
  });

  it('when an update names a vessel that does not exist, then the foreign key refuses it and nothing is written', async () => {
    const { em, entity, id, before } = await loadedSighting('kept');
    await sighting.write(entity, { sightingMemo: 'kept', vessel: { vesselId: 999_999 }, sightingTimezone: null, sightingDate: null }, { em, locale: 'en' });
    const error = await updateWithHistory(em, sighting, entity, 'bob', before).then(() => undefined, (failure: unknown) => failure);
    expect((error as Error | undefined)?.constructor.name).to.equal('ForeignKeyConstraintViolationException');
    expect((await query('select "vessel_id"::int as "vessel_id", "version" from "sighting" where "sighting_id" = ?', [id]))[0]).to.deep.equal({ vessel_id: -1, version: 0 });
    expect((await entries(id)).map((entry) => entry.change)).to.deep.equal(['created']);
  });
});
