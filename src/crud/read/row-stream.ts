// Reads a query's view rows in order, in batches and bounded memory: a cursor on PostgreSQL, keyset batches on PGlite.
// Batches, not rows, travel on to the views and the writer: a row costs no promise of its own past the driver.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, View, ViewQuery, ViewRow } from '../resource-descriptor.ts';
import { viewQuery } from '../view-rows.ts';
import type { Locale } from '../../i18n/messages.ts';
import { rootField } from '../root-alias.ts';
import { routedRead, type ConnectionType, type ReadKind } from '../../db/read-routing.ts';
import { readsByCursor } from '../../db/orm.ts';
import { runNamed } from '../../db/named-statements.ts';
import { cursorBatches } from '../../db/cursor-batches.ts';
import { listStatement } from './statement-shapes.ts';
import type { StreamShare } from '../../db/stream-share.ts';
import { inKeyOrder, keysetAfter, keyValues, listOrder, type SortKey } from './list-order.ts';

/**
 * Rows per cursor fetch on PostgreSQL, and per keyset batch on PGlite. PGlite runs in this process and cannot
 * stream: each batch blocks the event loop while it runs, so its batches are small and other requests get their
 * turn in between (see `nextTurn` below).
 */
export const batchSize = { pglite: 200, postgresql: 1000 };

/**
 * Rows of a whole list's first statement on PostgreSQL: a page's worth, so its first rows leave as soon as a page of
 * 50 would; the cursor's fetches read the rest.
 */
export const firstRows = 50;

export interface BatchedRead {
  /** Whether a read replica may answer (src/db/read-routing.ts decides). */
  kind: ReadKind;
  /** The view the rows are for: a list's rows hold only the list view's columns. */
  view: View;
  /**
   * The request's locale: values shown in its language come picked by the query (a vessel's name), not as the whole
   * language map each row would otherwise carry for the view to pick from.
   */
  locale?: Locale;
  limit?: number;
  /** The order, by default the id's (src/crud/read/list-order.ts). */
  keys?: readonly SortKey[];
  /**
   * A streamed read (a whole list): it holds one of the share's places while it reads, and gives it (and on
   * PostgreSQL its connection) back while its client does not take what it was given (see `sharedRead`).
   */
  share?: StreamShare;
  /** Aborts a read still waiting for a place: its client has gone. */
  signal?: AbortSignal;
}

type OrderedQuery<E> = (where: FilterQuery<E>, connectionType: ConnectionType) => ViewQuery;
/** At most `limit` rows of the view that `where` picks, in order, in one statement. */
type LimitedRead<E> = (where: FilterQuery<E>, limit: number, connectionType: ConnectionType) => Promise<ViewRow[]>;

export function viewRowBatches<E extends object>(
  em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>,
  { kind, view, locale, limit = Infinity, keys = listOrder(em, resource), share, signal }: BatchedRead,
): AsyncGenerator<ViewRow[]> {
  const query: OrderedQuery<E> = (condition, connectionType) =>
    inKeyOrder(viewQuery(em, resource, condition, view, connectionType, locale), keys);
  const read = limitedRead(em, resource, view, keys, locale);
  const byCursor = readsByCursor(em);
  const open = (after: ViewRow | undefined, remaining: number) => {
    const continued = after === undefined ? where : { $and: [where, keysetAfter(keys, keyValues(keys, after))] };
    const from = continued as FilterQuery<E>;
    // PGlite's driver has no cursors ("Streaming is not supported by PGlite"). A page fits one fetch: one statement
    // reads it, without the cursor's transaction around it (four round trips for one).
    if (byCursor) {
      // A whole list in another order than the id's: one cursor, one snapshot, let go without losing its order.
      if (share && keys.length > 1) return snapshotInOrder(em, from, kind, keys, query);
      if (remaining <= batchSize.postgresql) return onePage(from, kind, remaining, read);
      // Many streamed reads fit one page (a query by example for a rare word): one statement answers them, the
      // cursor and its transaction only read what comes after a full first page.
      const rest = (row: ViewRow) => ({ $and: [from, keysetAfter(keys, keyValues(keys, row))] } as FilterQuery<E>);
      return pageThenCursor(em, from, kind, remaining, read, query, rest);
    }
    if (keys.length === 1) return keysetBatches(from, kind, remaining, keys, read);
    return sortedBatches(from, kind, remaining, keys, query);
  };
  return share ? sharedRead(open, limit, byCursor, share, signal) : open(undefined, limit);
}

/** One statement of the view's rows in `keys`' order (statement-shapes.ts). */
function limitedRead<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>, view: View,
  keys: readonly SortKey[], locale?: Locale): LimitedRead<E> {
  return (condition, rows, connectionType) => {
    const { statement, params } = listStatement(em, resource, condition, view, keys, rows, connectionType, locale);
    return runNamed<ViewRow>(em, statement, params, connectionType);
  };
}

/**
 * A page: at most `limit` rows, in order, in memory. On PostgreSQL one statement (a page is at most a thousand rows
 * and one), awaited as it is: a generator drained into an array cost the page a promise and a turn per step. On
 * PGlite its keyset batches, gathered (each lets other requests run before the next).
 */
export async function viewRowPage<E extends object>(
  em: EntityManager, resource: ResourceDescriptor<E>, where: FilterQuery<E>,
  { kind, view, locale, limit, keys = listOrder(em, resource) }: BatchedRead & { limit: number },
): Promise<ViewRow[]> {
  if (readsByCursor(em)) {
    const read = limitedRead(em, resource, view, keys, locale);
    return routedRead(kind, (connectionType) => read(where, limit, connectionType));
  }
  const batches = await Array.fromAsync(viewRowBatches(em, resource, where, { kind, view, locale, limit, keys }));
  return batches.length === 1 ? batches[0]! : batches.flat();
}

/**
 * A whole list's first rows (`firstRows`) in the id's order, read as a page is: no place in the stream share taken for
 * them. Most queries by example end within them, and then they are the whole list, answered as a page is, without the
 * streamed read's machinery, even while long lists hold every place; only a full first page goes on (`rowsAfter`).
 * Undefined in another order than the id's, where a whole list is read otherwise (`snapshotInOrder`, `sortedBatches`).
 */
export function wholeListStart<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  where: FilterQuery<E>, { kind, view, locale, keys = listOrder(em, resource) }: BatchedRead,
): Promise<ViewRow[]> | undefined {
  if (keys.length > 1) return undefined;
  return viewRowPage(em, resource, where, { kind, view, locale, keys, limit: firstRows });
}

/** Whether a whole list's first rows (`wholeListStart`) are all of it. */
export const isWholeList = (first: readonly ViewRow[]): boolean => first.length < firstRows;

/**
 * A whole list after its full first rows (`wholeListStart`): those rows, then the batches of the rows after the last
 * of them, read as `viewRowBatches` reads. Settles once the first of those batches is read: its place in the share is
 * taken, or refused, before the answer has begun.
 */
export async function rowsAfter<E extends object>(em: EntityManager, resource: ResourceDescriptor<E>,
  where: FilterQuery<E>, first: ViewRow[], read: BatchedRead,
): Promise<AsyncGenerator<ViewRow[]>> {
  const keys = read.keys ?? listOrder(em, resource);
  const after = { $and: [where, keysetAfter(keys, keyValues(keys, first.at(-1)!))] } as FilterQuery<E>;
  const rest = viewRowBatches(em, resource, after, { ...read, keys, limit: (read.limit ?? Infinity) - first.length });
  const second = await rest.next();
  return (async function* () {
    try {
      yield first;
      if (second.done) return;
      yield second.value;
      yield* rest;
    } finally {
      await rest.return(undefined);
    }
  })();
}

/**
 * A streamed read within the pool's share (src/db/stream-share.ts). Its client may stop reading; a connection is
 * not held for it: when the client has not asked for the next batch `share.idleMs` after it was handed over, the
 * read lets go: on PostgreSQL it closes its cursor (its connection goes back to the pool) and gives its place back;
 * once the client asks again it takes a place and reads on from after the last row it was given, by the same order's
 * keyset (the rows after it as they are then, like PGlite's batches). On PGlite, which holds no connection between
 * batches, it only gives its place back. Chosen over reading ahead into a buffer: memory stays at two batches (the one
 * handed on, the cursor's next fetch) plus the socket's buffer whatever the client does, and at most one batch is read
 * that a client who has gone will never take.
 */
type OpenRead = (after: ViewRow | undefined, limit: number) => AsyncGenerator<ViewRow[]> | SnapshotRead;

/**
 * A read that lets go of its connection without reopening: it keeps its own place in the rows (`snapshotInOrder`),
 * and `letGo` settles once it holds no connection.
 */
interface SnapshotRead extends AsyncGenerator<ViewRow[]> {
  letGo(): Promise<void>;
}

async function* sharedRead(open: OpenRead, limit: number, closesWhenIdle: boolean, share: StreamShare,
  signal?: AbortSignal): AsyncGenerator<ViewRow[]> {
  let rows: AsyncGenerator<ViewRow[]> | undefined;
  let release: (() => void) | undefined;
  /** The read let go while its client was idle: done once its cursor is closed and its place given back. */
  let letGo: Promise<void> | undefined;
  let after: ViewRow | undefined;
  let remaining = limit;
  try {
    for (;;) {
      await letGo;
      // Back after letting go, its answer begun: a place is waited for, never refused (src/db/stream-share.ts).
      release ??= await (after === undefined ? share.take(signal) : share.resume(signal));
      rows ??= open(after, remaining);
      const next = await rows.next();
      if (next.done) return;
      remaining -= next.value.length;
      after = next.value.at(-1);
      const idle = setTimeout(() => {
        const held = rows!;
        const give = release!;
        release = undefined;
        const snapshot = (held as Partial<SnapshotRead>).letGo ? held as SnapshotRead : undefined;
        if (closesWhenIdle && !snapshot) rows = undefined;
        letGo = (snapshot ? snapshot.letGo() : closesWhenIdle ? held.return(undefined).then(() => {}, () => {})
          : Promise.resolve()).finally(give);
      }, share.idleMs);
      try {
        yield next.value;
      } finally {
        clearTimeout(idle);
      }
      if (remaining <= 0) return;
    }
  } finally {
    try {
      await letGo;
      await rows?.return(undefined);
    } finally {
      release?.();
    }
  }
}

/**
 * One statement read through a `pg` cursor: the planner sees the whole query (and takes the trigram index for a
 * substring) instead of one `order by id limit n` per batch, which it answers by walking the primary key. Each
 * fetch is bounded in time (src/db/bounded-cursor.ts).
 */
async function* cursor<E>(
  em: EntityManager, where: FilterQuery<E>, kind: ReadKind, limit: number, query: OrderedQuery<E>,
): AsyncGenerator<ViewRow[]> {
  // Opened (first fetch read) inside routedRead, so a replica that fails to answer hands the read to the primary.
  const { batches, first } = await routedRead(kind, async (connectionType) => {
    const qb = query(where, connectionType);
    if (Number.isFinite(limit)) qb.limit(limit);
    const batches = cursorBatches<ViewRow>(em, connectionType, qb.getFormattedQuery(), batchSize.postgresql);
    return { batches, first: await batches.next() };
  });
  try {
    // The driver's fetches travel on as they are: one promise per batch, none per row. The next fetch is asked for
    // before a batch is handed on, so the server reads it while this one is written: one batch ahead, never more.
    for (let next = first; !next.done;) {
      const ahead = batches.next();
      // Its failure is the next turn's to report; a reader that stops first closes the cursor once it has settled.
      ahead.catch(() => {});
      yield next.value;
      next = await ahead;
    }
  } finally {
    // Reached when the reader stops early (the client has gone) too: the generator's own `finally` closes the cursor
    // and returns the connection.
    await batches.return(undefined);
  }
}

/**
 * A page in one statement, built once per shape of its conditions (statement-shapes.ts) and sent with bound
 * parameters, unnamed: planned for its values, as the cursor's statement is.
 */
async function* onePage<E>(
  where: FilterQuery<E>, kind: ReadKind, limit: number, read: LimitedRead<E>,
): AsyncGenerator<ViewRow[]> {
  const rows = await routedRead(kind, (connectionType) => read(where, limit, connectionType));
  if (rows.length > 0) yield rows;
}

/** A first page in one statement; only when it is full, the rest after its last row through a cursor. */
async function* pageThenCursor<E>(
  em: EntityManager, where: FilterQuery<E>, kind: ReadKind, limit: number, read: LimitedRead<E>, query: OrderedQuery<E>,
  after: (row: ViewRow) => FilterQuery<E>,
): AsyncGenerator<ViewRow[]> {
  let last: ViewRow | undefined;
  for await (const rows of onePage(where, kind, firstRows, read)) {
    yield rows;
    if (rows.length === firstRows) last = rows.at(-1);
  }
  if (last) yield* cursor(em, after(last), kind, limit - firstRows, query);
}

async function* keysetBatches<E>(
  where: FilterQuery<E>, kind: ReadKind, limit: number, keys: readonly SortKey[], read: LimitedRead<E>,
): AsyncGenerator<ViewRow[]> {
  let after: ViewRow | undefined;
  for (let remaining = limit; remaining > 0;) {
    const page = Math.min(batchSize.pglite, remaining);
    const keyset = after === undefined ? where : { $and: [where, keysetAfter(keys, keyValues(keys, after))] };
    const rows = await routedRead(kind, (connectionType) => read(keyset as FilterQuery<E>, page, connectionType));
    if (rows.length > 0) yield rows;
    if (rows.length < page) return;
    remaining -= rows.length;
    after = rows.at(-1)!;
    // Let requests that arrived meanwhile run before the next batch blocks the loop again.
    await nextTurn();
  }
}

/**
 * PGlite, in another order than the id's (`sort`): the matching ids in that order first, in one statement, then their
 * rows a batch at a time. A keyset on a sort key (`date < ? or date is null or (date = ? and id > ?)`) has no index to
 * start from, so each batch sorted every matching row again. A row changed between the two reads is read as it is then.
 */
async function* sortedBatches<E>(
  where: FilterQuery<E>, kind: ReadKind, limit: number, keys: readonly SortKey[], query: OrderedQuery<E>,
): AsyncGenerator<ViewRow[]> {
  const id = keys.at(-1)!;
  const ids = (await routedRead(kind, (connectionType) => {
    const qb = query(where, connectionType).select([rootField(id.column)]);
    return (Number.isFinite(limit) ? qb.limit(limit) : qb).execute('all', false);
  }) as ViewRow[]).map((row) => row[id.column]);
  for (let start = 0; start < ids.length; start += batchSize.pglite) {
    if (start > 0) await nextTurn();
    const slice = ids.slice(start, start + batchSize.pglite);
    const batch = { $and: [where, { [id.property]: { $in: slice } }] } as FilterQuery<E>;
    const read = (connectionType: ConnectionType) => query(batch, connectionType).execute('all', false);
    const rows = await routedRead(kind, read) as ViewRow[];
    if (rows.length > 0) yield rows;
  }
}

/**
 * PostgreSQL, a whole list in another order than the id's (`sort`): one cursor, so every row comes from one snapshot.
 * Reopened after a pause by a keyset on the sort keys, a row whose key changed meanwhile would come twice or not at
 * all (issue 58). So when its client pauses (`letGo`), the read takes the ids of the rows still to come from the same
 * cursor, in its order, closes it, and from then on reads those rows by id, a batch at a time, each as it is then
 * (a row deleted meanwhile is left out). Memory: one number per row still to come.
 */
function snapshotInOrder<E>(
  em: EntityManager, where: FilterQuery<E>, kind: ReadKind, keys: readonly SortKey[], query: OrderedQuery<E>,
): SnapshotRead {
  const id = keys.at(-1)!;
  let open: AsyncGenerator<ViewRow[]> | undefined = cursor(em, where, kind, Infinity, query);
  let rest: number[] | undefined;
  let failure: unknown;
  async function* rows(): AsyncGenerator<ViewRow[]> {
    try {
      for (;;) {
        if (failure !== undefined) throw failure;
        if (!open) break;
        const next = await open.next();
        if (next.done) return;
        yield next.value;
      }
      for (let start = 0; start < rest!.length; start += batchSize.postgresql) {
        const slice = rest!.slice(start, start + batchSize.postgresql);
        const batch = { $and: [where, { [id.property]: { $in: slice } }] } as FilterQuery<E>;
        const found = await routedRead(kind, (connectionType) =>
          query(batch, connectionType).execute('all', false)) as ViewRow[];
        const byId = new Map(found.map((row) => [Number(row[id.column]), row]));
        const inOrder = slice.map((key) => byId.get(key)).filter((row): row is ViewRow => row !== undefined);
        if (inOrder.length > 0) yield inOrder;
      }
    } finally {
      await open?.return(undefined);
    }
  }
  const read = rows() as SnapshotRead;
  read.letGo = async () => {
    const held = open;
    if (!held) return;
    const ids: number[] = [];
    try {
      for (let next = await held.next(); !next.done; next = await held.next()) {
        for (const row of next.value) ids.push(Number(row[id.column]));
      }
      rest = ids;
    } catch (error) {
      failure = error;
    } finally {
      open = undefined;
      await held.return(undefined).catch(() => {});
    }
  };
  return read;
}

export async function* mapBatches<T, U>(
  batches: AsyncIterable<readonly T[]>, map: (item: T) => U,
): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(map);
}
