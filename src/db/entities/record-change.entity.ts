// The history of every record and the change feed's source: one row per committed create, update or delete.
import { defineEntity, p } from '@mikro-orm/core';

export const RecordChangeSchema = defineEntity({
  name: 'RecordChange',
  tableName: 'record_change',
  indexes: [{ name: 'record_change_record_index', properties: ['collection', 'recordId', 'version'] }],
  triggers: [
    // Ids from a sequence are not in commit order when transactions overlap: a reader resuming after 42 would skip a
    // 41 committed later. So each change takes its id under a transaction lock held until it commits: the ids a
    // reader sees only ever grow. The history insert is a change's last statement, so the lock is held briefly.
    {
      name: 'record_change_in_commit_order', timing: 'before', events: ['insert'], forEach: 'row',
      body: "perform pg_advisory_xact_lock(7305614298611); new.event_id := nextval('record_change_event_id_seq'); return new;",
    },
    // Delivered at commit, to every instance listening: each reads what is new (src/feed/).
    { name: 'record_change_notify', timing: 'after', events: ['insert'], forEach: 'statement', body: "perform pg_notify('record_change', ''); return null;" },
  ],
  properties: {
    // Set by the trigger below.
    eventId: p.bigint('number').primary().autoincrement(false),
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
    // The change feed's filter values before and after the change: `{"vesselId": [5, 7]}`.
    scope: p.json<Record<string, unknown[]>>(),
  },
});

export class RecordChange extends RecordChangeSchema.class {}
RecordChangeSchema.setClass(RecordChange);
