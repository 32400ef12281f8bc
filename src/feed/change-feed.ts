// One instance's change feed: places committed history entries in commit order (src/feed/sequencer.ts), reads them in
// that order and hands each to the streams that want it: "after event N" never skips a later commit.
import type { MikroORM } from '@mikro-orm/core';
import type { AnyResource, ViewRow } from '../crud/resource-descriptor.ts';
import type { Change } from '../history/record-history.ts';
import { onCommit } from './commit-signal.ts';
import { placeCommitted } from './sequencer.ts';

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
}

interface Subscription extends Subscriber {
  /** The last event id this subscriber has been given or has passed over. */
  cursor: number;
  /** Live subscribers get events from the feed's reads; others are still catching up from the history. */
  live: boolean;
}

const batch = 500;
const columns = '"position", "collection", "record_id", "version", "change", "row", "scope"';

function eventOf(row: Record<string, unknown>): ChangeEvent {
  return {
    eventId: Number(row.position), collection: row.collection as string, recordId: Number(row.record_id), version: row.version as number,
    change: row.change as Change, row: row.row as ViewRow | null, scope: row.scope as Record<string, unknown[]>,
  };
}

const wants = (subscription: Subscription, event: ChangeEvent) => event.collection === subscription.resource.name
  && Object.entries(subscription.filters).every(([name, value]) => event.scope[name]?.includes(value));

export class ChangeFeed {
  readonly #orm: MikroORM;
  readonly #subscriptions = new Set<Subscription>();
  /** The highest event id read; live subscribers have been given everything up to it. */
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
  #poll: NodeJS.Timeout | undefined;
  #forgetCommits: (() => void) | undefined;

  constructor(orm: MikroORM, { pollMs = 1000 }: { pollMs?: number } = {}) {
    this.#orm = orm;
    this.#pollMs = pollMs;
  }

  get subscribers(): number {
    return this.#subscriptions.size;
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
    if (this.#subscriptions.size) return this.wake();
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
   * Something was committed: read what is new (once more after the current read, if one is running). Reading serves
   * streams only: while there are none, a commit costs the feed nothing until the next tick places it.
   */
  wake(): void {
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    if (!this.#subscriptions.size) {
      this.#asleep = true;
      this.#unplaced = true;
      return;
    }
    this.#alone(() => this.#readNew()).catch(() => {
      // The database is unreachable: the next wake-up (or the poll) reads from the same position.
    });
  }

  /** Runs one placing or reading run at a time; a wake-up that came meanwhile reads after it. */
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
   * Before a stream subscribes to a feed that slept: places what was committed meanwhile and, when no stream is live
   * to be given those events, starts from the newest instead of reading through them.
   */
  async #awaken(): Promise<void> {
    while (this.#reading) await this.#reading;
    if (!this.#asleep) return;
    this.#asleep = false;
    this.#unplaced = false;
    await this.#alone(async () => {
      await placeCommitted(this.#orm.em);
      const newest = await this.#newest();
      if (![...this.#subscriptions].some(({ live }) => live)) this.#position = Math.max(this.#position, newest);
    }).catch((error: unknown) => {
      this.#asleep = this.#unplaced = true;
      throw error;
    });
  }

  /**
   * From `after` (an event id the subscriber had) or from now. Events after `after` are read from the history until
   * the subscriber has reached the feed's position; from then on it is live. When `after` is an id the history does
   * not know (another database's, or one from the future), the subscriber is reset and starts from now.
   */
  async subscribe(subscriber: Subscriber, after?: number): Promise<{ unsubscribe(): void }> {
    await this.#awaken();
    const subscription: Subscription = { ...subscriber, cursor: this.#position, live: after === undefined };
    const unsubscribe = () => { this.#subscriptions.delete(subscription); };
    this.#subscriptions.add(subscription);
    // A commit while it subscribed found no stream yet: read it now, not at the next poll.
    if (this.#asleep) this.wake();
    if (after === undefined) return { unsubscribe };
    if (after > this.#position && after > await this.#newest()) {
      subscriber.reset();
      subscription.cursor = this.#position;
      subscription.live = true;
      return { unsubscribe };
    }
    subscription.cursor = after;
    try {
      while (!subscription.live) {
        // Every event up to the feed's position now was committed before this read begins: the read sees it.
        const known = this.#position;
        const events = await this.#read(subscription.cursor, subscriber.resource.name);
        if (!this.#subscriptions.has(subscription)) break;
        for (const event of events) {
          if (wants(subscription, event)) subscription.send(event);
          subscription.cursor = event.eventId;
        }
        if (events.length === batch) continue;
        subscription.cursor = Math.max(subscription.cursor, known);
        // Checked and set in the same turn of the loop as the feed's own reads deliver: nothing falls in between.
        if (subscription.cursor >= this.#position) subscription.live = true;
      }
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return { unsubscribe };
  }

  async #newest(): Promise<number> {
    const row = await this.#orm.em.getConnection('write').execute('select coalesce(max("position"), 0) as "newest" from "record_change"', [], 'get') as { newest: string | number };
    return Number(row.newest);
  }

  #read(after: number, collection?: string): Promise<ChangeEvent[]> {
    const where = collection === undefined ? '' : ' and "collection" = ?';
    return this.#orm.em.getConnection('write')
      .execute(`select ${columns} from "record_change" where "position" > ?${where} order by "position" limit ${batch}`,
        [after, ...(collection === undefined ? [] : [collection])], 'all')
      .then((rows) => (rows as Record<string, unknown>[]).map(eventOf));
  }

  async #readNew(): Promise<void> {
    do {
      this.#readAgain = false;
      this.#asleep = false;
      this.#unplaced = false;
      await placeCommitted(this.#orm.em);
      for (let events = await this.#read(this.#position); events.length; events = events.length < batch ? [] : await this.#read(this.#position)) {
        for (const event of events) {
          for (const subscription of this.#subscriptions) {
            if (!subscription.live || event.eventId <= subscription.cursor) continue;
            if (wants(subscription, event)) subscription.send(event);
            subscription.cursor = event.eventId;
          }
          this.#position = event.eventId;
        }
      }
    } while (this.#readAgain);
  }
}
