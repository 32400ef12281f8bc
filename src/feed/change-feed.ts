// One instance's change feed: places committed history entries in commit order (src/feed/sequencer.ts), reads them in
// that order and hands each to the streams that want it: "after event N" never skips a later commit.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/core';
import { onCommit } from '../db/commit-signal.ts';
import { placeCommitted, placedPerRun, placeSome } from './sequencer.ts';
import { StreamShare } from '../db/stream-share.ts';
import { eventBatch, newestPlace, readEvents, type ChangeEvent } from './change-events.ts';
import { deliver, FeedStream, type Subscriber, type Subscription } from './feed-stream.ts';
import type { Logger } from '../observability/logger.ts';

export interface ChangeFeedOptions {
  pollMs?: number;
  /**
   * The pool's share that history reads for streams catching up take a place of, each for one statement, beside
   * whole lists (src/db/stream-share.ts): the rest of the pool stays for everything else.
   */
  catchUpShare?: StreamShare;
  /**
   * Told when a stream that had started ends because the feed cannot serve it: its answer is under way, so the error
   * handler never sees that failure.
   */
  logger?: Pick<Logger, 'warn'>;
}

export class ChangeFeed {
  readonly #orm: MikroORM;
  readonly #streams = new Set<FeedStream>();
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
  readonly #logger: Pick<Logger, 'warn'> | undefined;
  #poll: NodeJS.Timeout | undefined;
  #forgetCommits: (() => void) | undefined;

  constructor(orm: MikroORM, { pollMs = 1000, catchUpShare = new StreamShare(2, 3000, 1000), logger }:
    ChangeFeedOptions = {}) {
    this.#orm = orm;
    this.#pollMs = pollMs;
    this.#catchUpShare = catchUpShare;
    this.#logger = logger;
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
    this.#position = await newestPlace(this.#orm);
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
   * between batches) and then joins the feed's reads; one from now starts in the feed's next run, after every event
   * committed before it subscribed (that run places them first). An `after` the history does not know (another
   * database's, or one from the future) resets the stream, which then starts from now.
   */
  subscribe(subscriber: Subscriber, after?: number): Subscription {
    const stream = new FeedStream(subscriber, this.#position, this.#streams);
    if (after === undefined) this.#fromNow(stream);
    else void this.#catchUp(stream, after);
    return stream;
  }

  /**
   * A stream from now starts in the next run, after what was committed before it: the feed's position may lag the
   * commits it has not read yet, which are none of this stream's business.
   */
  #fromNow(stream: FeedStream): void {
    stream.state = 'waking';
    this.wake();
  }

  async #catchUp(stream: FeedStream, after: number): Promise<void> {
    try {
      if (after > this.#position && after > await newestPlace(this.#orm)) {
        if (stream.state === 'closed') return;
        stream.resetWhenPlaced = true;
        return this.#fromNow(stream);
      }
      stream.cursor = after;
      await this.#readOwn(stream);
    } catch (error) {
      this.#failed(stream, error);
    }
  }

  /**
   * A live or joining stream whose client fell behind the feed's reads (a batch's thousands of events come faster
   * than a slow client takes them): it gets nothing more from them, and once its client has taken what it was sent,
   * reads the history on its own from where it is, then joins again. It misses nothing, and holds a bounded buffer
   * however many events come; a client that takes nothing is cut off (STREAM_WRITE_TIMEOUT_MS) as it waits.
   */
  #fallBehind(stream: FeedStream): void {
    stream.state = 'catching-up';
    void (async () => {
      try {
        if (!await stream.subscriber.drained() || stream.state !== 'catching-up') return;
        await this.#readOwn(stream);
      } catch (error) {
        this.#failed(stream, error);
      }
    })();
  }

  /** Reads the stream's history after its cursor, a batch at a time as its client takes them; then it joins. */
  async #readOwn(stream: FeedStream): Promise<void> {
    for (;;) {
      // Every event up to the feed's position now was committed before this read begins: the read sees it.
      const known = this.#position;
      const events = await this.#catchUpRead(stream);
      if (events === undefined) return;
      stream.placed();
      deliver(stream, events);
      if (events.length < eventBatch) {
        // Other collections' events up to there are none of its business: joining need not read through them.
        stream.cursor = Math.max(stream.cursor, known);
        break;
      }
      // The client takes this batch before the next is read: a slow reader is never sent more than it reads.
      if (!await stream.subscriber.drained()) return;
      // A turn of the event loop between batches: PGlite reads in this process without leaving the loop, and a client
      // with room took each batch at once, so a replay of 20,000 events held it to its end, every other stream's
      // start and its own client's departure unseen until then (on PostgreSQL the read itself lets the loop turn).
      await nextTurn();
      if (stream.state !== 'catching-up') return;
    }
    stream.state = 'joining';
    this.wake();
  }

  /** The feed could not serve the stream (the database failed as it read on its own): it ends, the client resumes. */
  #failed(stream: FeedStream, error: unknown): void {
    if (stream.state === 'closed') return;
    // One not yet started is answered 503 with this error, which the request's log line carries.
    if (stream.isPlaced) this.#logger?.warn({ err: error, collection: stream.subscriber.resource.name },
      'change-feed stream ended: the feed could not read its history; its client resumes');
    stream.failed(error);
    stream.subscriber.end();
  }

  /**
   * The next batch of the stream's history, read once a place of the share is free; nothing (no statement) for a
   * stream that closed before its turn came.
   */
  async #catchUpRead(stream: FeedStream): Promise<ChangeEvent[] | undefined> {
    const signal = stream.closedSignal;
    if (signal.aborted) return undefined;
    const release = await this.#catchUpShare.take(signal);
    try {
      if (signal.aborted) return undefined;
      const { cursor, subscriber } = stream;
      const events = await readEvents(this.#orm, cursor, Number.MAX_SAFE_INTEGER, subscriber.resource.name);
      return signal.aborted ? undefined : events;
    } finally {
      release();
    }
  }

  /** One run: wakes a feed that slept, lets waiting streams join, then reads and delivers what is new. */
  async #run(): Promise<void> {
    try {
      const waking = [...this.#streams].filter(({ state }) => state === 'waking');
      // Placed first, so "now" is after every commit made before these streams subscribed, read or not.
      const now = this.#asleep ? await this.#awaken() : waking.length ? await this.#placedNow() : this.#position;
      for (const stream of waking) {
        if (stream.state !== 'waking') continue;
        stream.cursor = Math.max(this.#position, now);
        stream.state = 'live';
        if (stream.resetWhenPlaced) stream.subscriber.reset();
        stream.placed();
      }
      await this.#join();
      await this.#readNew();
    } catch (error) {
      for (const stream of this.#streams) if (stream.state === 'waking') stream.failed(error);
      throw error;
    }
  }

  /**
   * Places what was committed while the feed slept and, when no stream is live to be given those events, starts from
   * the newest instead of reading through them.
   */
  async #awaken(): Promise<number> {
    const newest = await this.#placedNow();
    if (![...this.#streams].some(({ state }) => state === 'live')) this.#position = Math.max(this.#position, newest);
    this.#asleep = false;
    return newest;
  }

  /** Places what was committed so far and answers the newest place. */
  async #placedNow(): Promise<number> {
    this.#unplaced = false;
    try {
      await placeCommitted(this.#orm.em);
      return await newestPlace(this.#orm);
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
      const events = await readEvents(this.#orm, from, this.#position);
      for (const stream of joining) {
        if (stream.state === 'joining' && !deliver(stream, events)) this.#fallBehind(stream);
      }
      from = events.at(-1)?.eventId ?? from;
      if (events.length < eventBatch) break;
    }
    for (const stream of joining) {
      if (stream.state !== 'joining') continue;
      stream.cursor = Math.max(stream.cursor, this.#position);
      stream.state = 'live';
    }
  }

  /** Streams that start (from now) or join after their catch-up at the top of the next run. */
  #hasWaiting(): boolean {
    return [...this.#streams].some(({ state }) => state === 'waking' || state === 'joining');
  }

  async #readNew(): Promise<void> {
    do {
      this.#readAgain = false;
      this.#unplaced = false;
      // What one placing run placed is delivered before the next run: a batch create's first events leave once its
      // first 5,000 are placed, not after all of them.
      for (let placed = placedPerRun; placed === placedPerRun;) {
        placed = await placeSome(this.#orm.em);
        await this.#deliverPlaced();
      }
      // Streams waiting to start or join are let in between reads: writers that never stop would keep this loop going.
    } while (this.#readAgain && !this.#hasWaiting());
  }

  /** Reads what is placed after the feed's position and gives it to the live streams. */
  async #deliverPlaced(): Promise<void> {
    for (let events = await readEvents(this.#orm, this.#position); events.length; events = events.length < eventBatch
      ? [] : await readEvents(this.#orm, this.#position)) {
      // One write per stream for the whole read: a batch's events cost each stream a write per 500, not per event.
      for (const stream of this.#streams) {
        if (stream.state === 'live' && !deliver(stream, events)) this.#fallBehind(stream);
      }
      this.#position = events.at(-1)!.eventId;
    }
  }
}
