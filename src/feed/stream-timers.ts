// The timers of every open stream of one application: one keep-alive interval for all of them and one timer for the
// earliest token expiry, not two timers (with their closures and async context) held by each stream.

/** setTimeout's longest wait; a later expiry is waited for in steps. */
const longestTimer = 2 ** 31 - 1;

export interface TimedStream {
  /** Called every keep-alive period while the stream is open. */
  beat(): void;
  /** Called once its token has expired. */
  expire(): void;
  /** When its token expires, in milliseconds since the epoch. */
  readonly expiresAt: number;
}

export class StreamTimers {
  readonly #keepAliveMs: number;
  readonly #open = new Set<TimedStream>();
  /** Open streams by the time their token expires: streams of one token share an entry. */
  readonly #byExpiry = new Map<number, Set<TimedStream>>();
  #keepAlive: NodeJS.Timeout | undefined;
  #expiry: NodeJS.Timeout | undefined;
  /** The expiry `#expiry` waits for (Infinity: none). */
  #armedFor = Infinity;

  constructor(keepAliveMs: number) {
    this.#keepAliveMs = keepAliveMs;
  }

  /**
   * Beats `stream` from now on and expires it at its `expiresAt`, until `remove`. A stream's first beat comes within
   * one period of its start, and then one period apart.
   */
  add(stream: TimedStream): void {
    const { expiresAt } = stream;
    this.#open.add(stream);
    this.#keepAlive ??= setInterval(() => {
      for (const open of this.#open) open.beat();
    }, this.#keepAliveMs);
    let expiring = this.#byExpiry.get(expiresAt);
    if (!expiring) this.#byExpiry.set(expiresAt, expiring = new Set());
    expiring.add(stream);
    if (expiresAt < this.#armedFor) this.#arm(expiresAt);
  }

  /** Stops beating and expiring `stream` (nothing if it was expired or removed before). */
  remove(stream: TimedStream): void {
    if (!this.#open.delete(stream)) return;
    const expiring = this.#byExpiry.get(stream.expiresAt);
    expiring?.delete(stream);
    if (expiring?.size === 0) this.#byExpiry.delete(stream.expiresAt);
    if (this.#open.size) return;
    clearInterval(this.#keepAlive);
    clearTimeout(this.#expiry);
    this.#keepAlive = this.#expiry = undefined;
    this.#armedFor = Infinity;
  }

  #arm(time: number): void {
    clearTimeout(this.#expiry);
    this.#armedFor = time;
    const wait = time - Date.now();
    this.#expiry = wait > longestTimer ? setTimeout(() => this.#arm(time), longestTimer)
      : setTimeout(() => this.#expireDue(), Math.max(0, wait));
  }

  /** Expires every stream whose token has expired, and waits for the next expiry. */
  #expireDue(): void {
    this.#expiry = undefined;
    this.#armedFor = Infinity;
    const now = Date.now();
    for (const [time, streams] of this.#byExpiry) {
      if (time > now) continue;
      this.#byExpiry.delete(time);
      // Expiring ends the stream, which removes it: each is taken out of the open set first.
      for (const stream of streams) {
        this.#open.delete(stream);
        stream.expire();
      }
    }
    if (!this.#open.size) {
      clearInterval(this.#keepAlive);
      this.#keepAlive = undefined;
    }
    const next = Math.min(...this.#byExpiry.keys());
    if (next < Infinity) this.#arm(next);
  }
}
