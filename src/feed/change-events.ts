// The feed's events as the history table holds them: a batch read after a place in the feed, and the newest place.
import type { MikroORM } from '@mikro-orm/core';
import type { ViewRow } from '../crud/resource-descriptor.ts';
import type { Change } from '../crud/write/record-history.ts';

export interface ChangeEvent {
  eventId: number;
  collection: string;
  recordId: number;
  version: number;
  change: Change;
  row: ViewRow | null;
  scope: Record<string, unknown[]>;
}

/** The most events one read takes: a catching-up stream's client takes one batch before the next is read. */
export const eventBatch = 500;
const columns = '"position", "collection", "record_id", "version", "change", "row", "scope"';

function eventOf(row: Record<string, unknown>): ChangeEvent {
  return {
    eventId: Number(row.position), collection: row.collection as string, recordId: Number(row.record_id),
      version: row.version as number,
    change: row.change as Change, row: row.row as ViewRow | null, scope: row.scope as Record<string, unknown[]>,
  };
}

/** The newest place given (0 for none). */
export async function newestPlace(orm: MikroORM): Promise<number> {
  const row =
    await orm.em.getConnection('write').execute('select coalesce(max("position"), 0) as "newest" from "record_change"',
    [], 'get') as { newest: string | number };
  return Number(row.newest);
}

/** Up to a batch of events after `after` and up to `upTo`, of one collection or all. */
export function readEvents(orm: MikroORM, after: number, upTo = Number.MAX_SAFE_INTEGER,
  collection?: string): Promise<ChangeEvent[]> {
  const where = collection === undefined ? '' : ' and "collection" = ?';
  return orm.em.getConnection('write')
    .execute(`select ${columns} from "record_change" where "position" > ? and "position" <= ?${where} order by ` +
      `"position" limit ${eventBatch}`,
      [after, upTo, ...(collection === undefined ? [] : [collection])], 'all')
    .then((rows) => (rows as Record<string, unknown>[]).map(eventOf));
}
