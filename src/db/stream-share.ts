// The share of the pool that streamed reads (whole lists, queries by example, the feed's catch-up) hold together.
import type { Response } from 'express';
import type { Config } from '../config/config.ts';
import { ServiceUnavailable } from '../errors/app-errors.ts';

interface Waiter {
  resolve(release: () => void): void;
  reject(error: unknown): void;
  /** A read whose answer has begun, back for a place after it let go of one (`resume`). */
  resuming: boolean;
}

/** The refusal, telling the client when a place is expected to be free (RFC 9110 §10.2.3: whole seconds). */
const busy = (retryAfterMs = 1000) => new ServiceUnavailable('error.streamedReadsBusy', {},
  { 'Retry-After': String(Math.min(maxRetryAfterSeconds, Math.max(1, Math.ceil(retryAfterMs / 1000)))) });

// A burst of lists must not pile up waiters (a promise and a timer each) without bound: beyond this many per place a
// read is refused at once, told when to come back, rather than queued for a place it would hardly get in time.
const waitersPerPlace = 4;
// A hint beyond a few minutes says nothing a client can plan with; the header's own bound in openapi.yaml is a day.
const maxRetryAfterSeconds = 300;
// How much the newest hand-over moves the pace: enough to follow a change of load within a few reads.
const paceWeight = 0.2;

/**
 * At most `places` streamed reads hold a connection at once, the rest waiting in order of arrival for at most
 * `waitMs`, then refused (503 + Retry-After). The rest of the pool stays for reads and writes of one record, which
 * never wait behind a long read. A wait whose `signal` aborts (its client has gone) leaves the queue before it runs.
 * A read whose answer has begun and that let go of its place while its client paused (`resume`) comes back ahead of
 * every read not begun, and is never refused: its status is sent, so a refusal could only cut its answer, while a read
 * not begun can still be told when to come back.
 */
export class StreamShare {
  readonly places: number;
  /** How long a read may keep its place (and connection) while its client takes nothing (crud/read/row-stream.ts). */
  readonly idleMs: number;
  readonly #waitMs: number;
  #free: number;
  readonly #waiting: Waiter[] = [];
  /** The time between two places handed to waiting reads, on average (weighted towards the newest). */
  #meanHandOverMs: number | undefined;
  /** When a place was last handed to a waiting read; undefined once one was given back with nobody waiting. */
  #lastHandOver: number | undefined;

  constructor(places: number, waitMs: number, idleMs: number) {
    this.places = Math.max(1, places);
    this.#waitMs = waitMs;
    this.idleMs = idleMs;
    this.#free = this.places;
  }

  /** The most reads that wait for a place at once. */
  get maxWaiting(): number {
    return this.places * waitersPerPlace;
  }

  /**
   * When a read with `ahead` reads before it in the queue is expected to get a place: after `ahead + 1` hand-overs,
   * at the pace places have been handed over lately (what lists hold, the pauses of their clients and a busy event
   * loop all show in it). Before that pace is known, every place is taken to free once per wait bound.
   */
  expectedWaitMs(ahead: number): number {
    return (ahead + 1) * (this.#meanHandOverMs ?? this.#waitMs / this.places);
  }

  /** The share the settings give streamed reads: `STREAM_POOL_SHARE` of `DB_POOL_MAX`'s connections, at least one. */
  static of(
    settings: Pick<Config, 'DB_POOL_MAX' | 'STREAM_POOL_SHARE' | 'DB_ACQUIRE_TIMEOUT_MS' | 'STREAM_IDLE_RELEASE_MS'>):
    StreamShare {
    const places = Math.floor(settings.DB_POOL_MAX * settings.STREAM_POOL_SHARE);
    return new StreamShare(places, settings.DB_ACQUIRE_TIMEOUT_MS, settings.STREAM_IDLE_RELEASE_MS);
  }

  /** Streamed reads holding a place now (metrics, tests). */
  get held(): number {
    return this.places - this.#free;
  }

  /** Streamed reads waiting for a place now (metrics). */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Resolves with the function that gives the place back (once) when one is free. */
  take(signal?: AbortSignal): Promise<() => void> {
    return this.#wait(false, signal);
  }

  /** As `take`, for a read whose answer has begun: ahead of the reads not begun, waiting until a place is free. */
  resume(signal?: AbortSignal): Promise<() => void> {
    return this.#wait(true, signal);
  }

  #wait(resuming: boolean, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve(this.#release());
    }
    const waitingToBegin = this.#waiting.length - this.#resuming();
    if (!resuming && waitingToBegin >= this.maxWaiting) {
      return Promise.reject(busy(this.expectedWaitMs(this.#waiting.length)));
    }
    return new Promise((resolve, reject) => {
      const leave = (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(error);
      };
      const aborted = () => leave(signal!.reason);
      const waiter: Waiter = {
        resolve: (release) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
          resolve(release);
        },
        reject: leave,
        resuming,
      };
      // Refused after its wait, with the wait still expected from where it stands in the queue.
      const timer = resuming ? undefined
        : setTimeout(() => leave(busy(this.expectedWaitMs(this.#waiting.indexOf(waiter)))), this.#waitMs);
      signal?.addEventListener('abort', aborted, { once: true });
      // Behind the reads resuming before it, ahead of every read not begun.
      this.#waiting.splice(resuming ? this.#resuming() : this.#waiting.length, 0, waiter);
    });
  }

  /** How many of the waiting reads resume (they stand at the front of the queue). */
  #resuming(): number {
    const firstToBegin = this.#waiting.findIndex((waiter) => !waiter.resuming);
    return firstToBegin < 0 ? this.#waiting.length : firstToBegin;
  }

  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Handed straight to the next waiter: a place never looks free while someone waits for one.
      const next = this.#waiting.shift();
      if (next) {
        this.#handedOver();
        next.resolve(this.#release());
      } else {
        this.#lastHandOver = undefined;
        this.#free += 1;
      }
    };
  }

  /** Counts a hand-over into the pace, measured only while reads wait (an idle share says nothing of it). */
  #handedOver(): void {
    const now = performance.now();
    const last = this.#lastHandOver;
    this.#lastHandOver = now;
    if (last === undefined) return;
    const mean = this.#meanHandOverMs;
    this.#meanHandOverMs = mean === undefined ? now - last : mean + paceWeight * (now - last - mean);
  }
}

/** The application's share (kept in `app.locals` by createApp). */
export const streamShareOf = (res: Response): StreamShare => res.app.locals.streamShare as StreamShare;

/**
 * Aborts when the answer closes before it is complete (its client has gone): a read still waiting for a place is
 * dropped. The reason is a 503 only so that the request's log line does not count it as a failure of the service;
 * nobody is left to read it.
 */
export function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  // An answer closes once: `on`, not `once`. With `once` here (a wrapper per answer), each whole list's
  // request and answer outlived V8's young-generation collections: 20 % of what the service allocated under a load of
  // whole lists survived each one and was promoted, 0.5 % with `on` (`--trace-gc-nvp`, docs/benchmarks.md).
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(busy());
  });
  return gone.signal;
}
