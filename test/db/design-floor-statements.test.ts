// The benchmark's design floor sends the service's own statements, copied as text into bench/floor-sql.ts
// (`designReads`, `designWrites`): its ratios hold only while those copies are what the service writes.
import { expect } from 'chai';
import type { EntityManager } from '@mikro-orm/core';
import { byIdStatement } from '../../src/crud/view-rows.ts';
import { listStatement } from '../../src/crud/read/statement-shapes.ts';
import { listOrder } from '../../src/crud/read/list-order.ts';
import { matching } from '../../src/crud/read/query-by-example.ts';
import { namedStatement } from '../../src/db/named-statements.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import { insertStatement, updateStatement } from '../../src/crud/write/row-statements.ts';
import { rowValues } from '../../src/crud/write/row-values.ts';
import { designReads, designWrites } from '../../bench/floor-sql.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

describe("the design floor's copies of the service's statements", () => {
  let database: TestDatabase;
  let em: EntityManager;
  before(async () => {
    database = await openTestDatabase();
    em = database.orm.em;
  });
  after(() => database.close());

  const listed = (where: object, view: 'list' | 'detail', limit: number) => listStatement(em, sighting,
    where as never, view, listOrder(em, sighting, undefined, 'en'), limit, 'read', 'en').statement.text;

  it('when a sighting is read by id, then the design floor sends the same text', () => {
    expect(designReads.read).to.equal(namedStatement(byIdStatement(em, sighting)).text);
  });

  it('when a page of sightings is read, then the design floor sends the same text', () => {
    expect(designReads.listPage).to.equal(listed({}, 'list', 51));
  });

  it('when sightings are queried by example in batches after an id, then the design floor sends the same text', () => {
    const example = { sightingMemo: matching('needle') };
    expect(designReads.qbeBatch).to.equal(listed({ $and: [{}, example, { sightingId: { $gt: 7 } }] }, 'detail', 1000));
  });

  /** The columns a sighting's write sets, as the write handlers give them to rowValues. */
  const written = (owner?: string) => rowValues(em, sighting, { ...sighting.values({ sightingMemo: 'seen',
    vessel: { vesselId: -2 }, sightingTimezone: 'Europe/Berlin', sightingDate: '2026-01-02T03:04' } as never),
  ...owner && { creator: owner } }).columns;

  it('when a sighting is created, then the design floor sends the same text', () => {
    expect(designWrites.create).to.equal(insertStatement(em, sighting, written('alice')).text);
  });

  it('when a sighting is replaced stating its version, then the design floor sends the same text', () => {
    expect(designWrites.replace).to.equal(updateStatement(em, sighting, written(), false).text);
  });
});
