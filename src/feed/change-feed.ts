// One instance's change feed: places committed history entries in commit order (src/feed/sequencer.ts), reads them in
// that order and hands each to the streams that want it: "after event N" never skips a later commit.
import type { MikroORM } from '@mikro-orm/core';
import type { AnyResource, ViewRow } from '../crud/resource-descriptor.ts';
import type { Change } from '../crud/record-history.ts';
import { onCommit } from '../db/commit-signal.ts';
import { placeCommitted } from './sequencer.ts';
import { StreamShare } from '../db/stream-share.ts';

export interface ChangeEvent {
  eventId: number;
  collection: string;
  recordId: number;
  version: number;
  change: Change;
  row: ViewRow | null;
  scope: Record<string, unknown[]>;
}

export interface Subscriber {
  resource: AnyResource;
  /** Filter values (`vesselId`): an event whose scope holds each of them. */
  filters: Record<string, unknown>;
  send(event: ChangeEvent): void;
  /** The id it resumes after is unknown to the history: it gets events from now on, and should reload first. */
  reset(): void;
  /** Resolves true once the stream's client has taken what it was sent, false when it has gone. */
  drained(): Promise<boolean>;
  /** The feed can no longer serve it (the database failed while it caught up): the stream ends, the client resumes. */
  end(): void;
}

export interface Subscription {
  /** Settles once the stream's place in the feed is fixed: from then on no event it should get can be missed. */
  started: Promise<void>;
  unsubscribe(): void;
}

/**
 * `waking`: from now, on a feed that slept (its position is fixed by the run that wakes it); `catching-up`: reads the
 * history on its own; `joining`: has read it up to lately, the feed's next run gives it the rest and makes it `live`;
 * `live`: gets events from the feed's own reads.
 */
type State = 'waking' | 'catching-up' | 'joining' | 'live' | 'closed';

interface Stream extends Subscriber {
  /** The last event id this stream has been given or has passed over. */
  cursor: number;
  state: State;
  start: PromiseWithResolvers<void>;
  /** Aborted when the stream closes: its catch-up read, should it still wait for a place, is dropped unread. */
  closed: AbortController;
}

const batch = 500;
const columns = '"position", "collection", "record_id", "version", "change", "row", "scope"';

function eventOf(row: Record<string, unknown>): ChangeEvent {
  return {
    eventId: Number(row.position), collection: row.collection as string, recordId: Number(row.record_id), version: row.version as number,
    change: row.change as Change, row: row.row as ViewRow | null, scope: row.scope as Record<string, unknown[]>,
  };
}

const wants = (stream: Stream, event: ChangeEvent) => event.collection === stream.resource.name
  && Object.entries(stream.filters).every(([name, value]) => event.scope[name]?.includes(value));

/** Gives `event` to `stream` if it wants it and has not had it. */
function deliver(stream: Stream, event: ChangeEvent): void {
  if (event.eventId <= stream.cursor) return;
  if (wants(stream, event)) stream.send(event);
  stream.cursor = event.eventId;
}

export interface ChangeFeedOptions {
  pollMs?: number;
  /**
   * The pool's share that history reads for streams catching up take a place of, each for one statement, beside
   * whole lists (src/db/stream-share.ts): the rest of the pool stays for everything else.
   */
  catchUpShare?: StreamShare;
}

export class ChangeFeed {
  readonly #orm: MikroORM;
  readonly #streams = new Set<Stream>();
  /** The highest event id read; live streams have been given everything up to it. */
  #position = 0;
  /** The run placing or reading now; runs never overlap. */
  #reading: Promise<void> | undefined;
  #readAgain = false;
  /**
   * Commits may have come while no stream listened (or before this instance started, from instances where none did):
   * nothing has been read since (the tick may have placed them), and #position may be behind.
   */
  #asleep = true;
  /** Commits came while asleep that no run has placed yet. */
  #unplaced = false;
  readonly #pollMs: number;
  readonly #catchUpShare: StreamShare;
  #poll: NodeJS.Timeout | undefined;
  #forgetCommits: (() => void) | undefined;

  constructor(orm: MikroORM, { pollMs = 1000, catchUpShare = new StreamShare(2, 3000, 1000) }: ChangeFeedOptions = {}) {
    this.#orm = orm;
    this.#pollMs = pollMs;
    this.#catchUpShare = catchUpShare;
  }

  get subscribers(): number {
    return this.#streams.size;
  }

  /**
   * Starts at the newest committed event. Woken by this process's commits and PostgreSQL's notifications, and every
   * second (`pollMs`) while it has streams: a lost notification delays an event by a second at most. While it has
   * none, the same tick places what was committed since the last one (no read): however long no stream listens, the
   * first one waits for a second's commits at most, not for all of them.
   */
  async start(): Promise<void> {
    this.#position = await this.#newest();
    this.#forgetCommits = onCommit(() => this.wake());
    this.#poll = setInterval(() => this.#tick(), this.#pollMs);
    this.#poll.unref();
  }

  #tick(): void {
    if (this.#streams.size) return this.wake();
    if (!this.#unplaced || this.#reading) return;
    this.#unplaced = false;
    this.#alone(() => placeCommitted(this.#orm.em)).catch(() => {
      this.#unplaced = true;
    });
  }

  stop(): void {
    clearInterval(this.#poll);
    this.#forgetCommits?.();
  }

  /**
   * Something was committed, or a stream is waiting to join: run once more (after the current run, if one is
   * running). Runs serve streams only: while there are none, a commit costs the feed nothing until the next tick.
   */
  wake(): void {
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    if (!this.#streams.size) {
      this.#asleep = true;
      this.#unplaced = true;
      return;
    }
    this.#alone(() => this.#run()).catch(() => {
      // The database is unreachable: the next wake-up (or the poll) reads from the same position.
    });
  }

  /** Runs one placing or reading run at a time; a wake-up that came meanwhile runs after it. */
  #alone(run: () => Promise<void>): Promise<void> {
    const running = run().finally(() => {
      this.#reading = undefined;
      if (!this.#readAgain) return;
      this.#readAgain = false;
      this.wake();
    });
    this.#reading = running.catch(() => undefined);
    return running;
  }

  /**
   * Registers the stream at once, whatever the feed is doing: from `after` (an event id it had) or from now. A stream
   * that resumes reads the history on its own (a few at a time, each read one statement, waiting for its client
   * between batches) and then joins the feed's reads; one from now starts at the feed's position, or, on a feed that
   * slept, at the newest event the run that wakes it finds. An `after` the history does not know (another database's,
   * or one from the future) resets the stream, which then starts from now.
   */
  subscribe(subscriber: Subscriber, after?: number): Subscription {
    const stream: Stream = {
      ...subscriber, cursor: this.#position, state: 'catching-up',
      start: Promise.withResolvers<void>(), closed: new AbortController(),
    };
    // Nobody need wait for a start that failed: the HTTP answer reads it from `started`.
    stream.start.promise.catch(() => {});
    this.#streams.add(stream);
    if (after === undefined) this.#fromNow(stream);
    else void this.#catchUp(stream, after);
    return {
      started: stream.start.promise,
      unsubscribe: () => {
        stream.state = 'closed';
        this.#streams.delete(stream);
        // Its catch-up stops where it is; a start still awaited ends (its answer has nobody left to go to).
        stream.closed.abort(new Error('the stream has closed'));
        stream.start.reject(stream.closed.signal.reason);
      },
    };
  }

  #fromNow(stream: Stream): void {
    if (this.#asleep) {
      stream.state = 'waking';
      return this.wake();
    }
    stream.cursor = this.#position;
    stream.state = 'live';
    stream.start.resolve();
  }

  async #catchUp(stream: Stream, after: number): Promise<void> {
    try {
      if (after > this.#position && after > await this.#newest()) {
        if (stream.state === 'closed') return;
        stream.reset();
        return this.#fromNow(stream);
      }
      stream.cursor = after;
      for (;;) {
        // Every event up to the feed's position now was committed before this read begins: the read sees it.
        const known = this.#position;
        const events = await this.#catchUpRead(stream);
        if (events === undefined) return;
        stream.start.resolve();
        for (const event of events) deliver(stream, event);
        if (events.length < batch) {
          // Other collections' events up to there are none of its business: joining need not read through them.
          stream.cursor = Math.max(stream.cursor, known);
          break;
        }
        // The client takes this batch before the next is read: a slow reader is never sent more than it reads.
        if (!await stream.drained() || stream.state !== 'catching-up') return;
      }
      stream.state = 'joining';
      this.wake();
    } catch (error) {
      if (stream.state === 'closed') return;
      stream.start.reject(error);
      stream.end();
    }
  }

  /**
   * The next batch of the stream's history, read once a place of the share is free; nothing (no statement) for a
   * stream that closed before its turn came.
   */
  async #catchUpRead(stream: Stream): Promise<ChangeEvent[] | undefined> {
    const { signal } = stream.closed;
    if (signal.aborted) return undefined;
    const release = await this.#catchUpShare.take(signal);
    try {
      if (signal.aborted) return undefined;
      const events = await this.#read(stream.cursor, Number.MAX_SAFE_INTEGER, stream.resource.name);
      return signal.aborted ? undefined : events;
    } finally {
      release();
    }
  }

  /** One run: wakes a feed that slept, lets waiting streams join, then reads and delivers what is new. */
  async #run(): Promise<void> {
    try {
      if (this.#asleep) await this.#awaken();
      for (const stream of this.#streams) {
        if (stream.state !== 'waking') continue;
        stream.cursor = this.#position;
        stream.state = 'live';
        stream.start.resolve();
      }
      await this.#join();
      await this.#readNew();
    } catch (error) {
      for (const stream of this.#streams) if (stream.state === 'waking') stream.start.reject(error);
      throw error;
    }
  }

  /**
   * Places what was committed while the feed slept and, when no stream is live to be given those events, starts from
   * the newest instead of reading through them.
   */
  async #awaken(): Promise<void> {
    this.#unplaced = false;
    try {
      await placeCommitted(this.#orm.em);
      const newest = await this.#newest();
      if (![...this.#streams].some(({ state }) => state === 'live')) this.#position = Math.max(this.#position, newest);
      this.#asleep = false;
    } catch (error) {
      this.#unplaced = true;
      throw error;
    }
  }

  /**
   * Streams that caught up on their own read the history up to a moment ago: within this run, while the position
   * stands still, they get what came since, and are live from then on. Their reads never chase a moving position.
   */
  async #join(): Promise<void> {
    const joining = [...this.#streams].filter(({ state }) => state === 'joining');
    if (!joining.length) return;
    for (let from = Math.min(...joining.map(({ cursor }) => cursor)); from < this.#position;) {
      const events = await this.#read(from, this.#position);
      for (const event of events) {
        for (const stream of joining) if (stream.state === 'joining') deliver(stream, event);
        from = event.eventId;
      }
      if (events.length < batch) break;
    }
    for (const stream of joining) {
      if (stream.state !== 'joining') continue;
      stream.cursor = Math.max(stream.cursor, this.#position);
      stream.state = 'live';
    }
  }

  async #newest(): Promise<number> {
    const row = await this.#orm.em.getConnection('write').execute('select coalesce(max("position"), 0) as "newest" from "record_change"', [], 'get') as { newest: string | number };
    return Number(row.newest);
  }

  /** Up to a batch of events after `after` and up to `upTo`, of one collection or all. */
  #read(after: number, upTo = Number.MAX_SAFE_INTEGER, collection?: string): Promise<ChangeEvent[]> {
    const where = collection === undefined ? '' : ' and "collection" = ?';
    return this.#orm.em.getConnection('write')
      .execute(`select ${columns} from "record_change" where "position" > ? and "position" <= ?${where} order by "position" limit ${batch}`,
        [after, upTo, ...(collection === undefined ? [] : [collection])], 'all')
      .then((rows) => (rows as Record<string, unknown>[]).map(eventOf));
  }

  async #readNew(): Promise<void> {
    do {
      this.#readAgain = false;
      this.#unplaced = false;
      await placeCommitted(this.#orm.em);
      for (let events = await this.#read(this.#position); events.length; events = events.length < batch ? [] : await this.#read(this.#position)) {
        for (const event of events) {
          for (const stream of this.#streams) if (stream.state === 'live') deliver(stream, event);
          this.#position = event.eventId;
        }
      }
    } while (this.#readAgain);
  }
}
