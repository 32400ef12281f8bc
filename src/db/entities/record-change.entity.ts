// The history of every record and the change feed's source: one row per committed create, update or delete.
import { defineEntity, p } from '@mikro-orm/core';

export const RecordChangeSchema = defineEntity({
  name: 'RecordChange',
  tableName: 'record_change',
  indexes: [
    { name: 'record_change_record_index', properties: ['collection', 'recordId', 'version'] },
    // What the sequencer (src/feed/sequencer.ts) has yet to place: few rows, found without reading the rest.
    { name: 'record_change_unplaced_index', expression: 'create index "record_change_unplaced_index" on ' +
      '"record_change" ("event_id") where "position" is null' },
  ],
  properties: {
    // In insert order, which is not commit order when transactions overlap: the feed goes by `position`.
    eventId: p.bigint('number').primary().autoincrement(),
    collection: p.string().length(64),
    recordId: p.bigint('number'),
    // The version the change made; a delete keeps the version the record had.
    version: p.integer(),
    change: p.string().length(8),
    changedAt: p.datetime().length(3),
    // The token's username, shown to admins only.
    changedBy: p.string().length(255).nullable(),
    // The record's view row at this version, as the view query read it in the change's transaction; null for a delete.
    row: p.json<Record<string, unknown>>().nullable(),
    /**
     * The change's place in commit order, the change feed's event id: set after the commit by the sequencer, one run
     * at a time, so a reader that has seen position N has seen every change placed before it.
     */
    position: p.bigint('number').nullable().unique(),
    // The change feed's filter values before and after the change: `{"vesselId": [5, 7]}`.
    scope: p.json<Record<string, unknown[]>>(),
  },
});

export class RecordChange extends RecordChangeSchema.class {}
RecordChangeSchema.setClass(RecordChange);
