// Writes of a long answer whose client may go away or stop reading: such a client holds nothing for long
// (docs/behaviour.md#streams-and-clients-that-leave).
import type { ServerResponse } from 'node:http';
import type { Response } from 'express';

export interface BoundedWrites {
  /** Writes `text`; false when the client's buffer is full (wait for `drained`) or the client is gone. */
  write(text: string | Uint8Array): boolean;
  /** Resolves true once the client has taken what was written, false when it has gone or was cut off. */
  drained(): Promise<boolean>;
  /** Whether the client has gone (or was cut off): nothing more is written to it. */
  gone(): boolean;
}

/**
 * Each answer's writes, for the `close` listener that all answers share: kept on the answer, not in a WeakMap keyed by
 * it. V8's young-generation collection keeps a WeakMap's value while its key is young, and this value holds its key:
 * every streamed answer (its request, its headers, all it referenced) outlived the collections it met and was promoted,
 * 14 % of all the service allocated under a load of whole lists (2 % kept on the answer; docs/benchmarks.md).
 */
const writesKey = Symbol('response writes');
type WithWrites = ServerResponse & { [writesKey]?: ResponseWrites };

/** An answer closes once: one listener for all, no `once` wrapper, nothing of its own held for a stream's life. */
function closed(this: WithWrites): void {
  this[writesKey]?.settle(false);
}

/**
 * A client that takes none of what was written for `stallMs` (`STREAM_WRITE_TIMEOUT_MS`) is cut off: its
 * connection is destroyed, so the answer's `close` fires and whatever it held (a cursor, a subscription) is let go.
 * The bound starts when a write finds the buffer full and ends at the client's next `drain`: a slow reader that keeps
 * reading is never cut, one that stopped is, however little it was sent. A class: its methods are shared, where an
 * object of closures held six closures and their context for every open stream (docs/benchmarks.md).
 */
class ResponseWrites implements BoundedWrites {
  readonly #res: ServerResponse;
  readonly #stallMs: number;
  #stalled: NodeJS.Timeout | undefined;
  /** The last write found the buffer full; a `drain` has not come since. */
  #full = false;
  /** Who waits for the client to take what was written; most answers never wait. */
  #waiting: Array<(taken: boolean) => void> | undefined;

  constructor(res: ServerResponse, stallMs: number) {
    this.#res = res;
    this.#stallMs = stallMs;
    (res as WithWrites)[writesKey] = this;
    // One listener for the answer's life, never added per wait; its own, not shared: a compressing middleware
    // (src/http/compression.ts) moves `drain` listeners onto its compressor, which then calls them.
    res.on('drain', () => this.settle(true));
    res.on('close', closed);
  }

  gone(): boolean {
    return this.#res.destroyed || this.#res.writableEnded;
  }

  write(text: string | Uint8Array): boolean {
    if (this.gone()) return false;
    if (this.#res.write(text)) return true;
    this.#full = true;
    this.#stalled ??= setTimeout(cutOff, this.#stallMs, this.#res);
    return false;
  }

  drained(): Promise<boolean> {
    if (this.gone()) return Promise.resolve(false);
    if (!this.#full) return Promise.resolve(true);
    return new Promise((resolve) => (this.#waiting ??= []).push(resolve));
  }

  settle(taken: boolean): void {
    clearTimeout(this.#stalled);
    this.#stalled = undefined;
    this.#full = false;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    for (const resolve of waiting ?? []) resolve(taken);
  }
}

const cutOff = (res: ServerResponse) => res.destroy();

/** `res`'s writes, its client cut off once it has taken nothing for `stallMs`. */
export const boundedWrites = (res: ServerResponse, stallMs: number): BoundedWrites => new ResponseWrites(res, stallMs);

/** A response's writes bounded by the application's `STREAM_WRITE_TIMEOUT_MS` (kept in `app.locals` by createApp). */
export const responseWrites = (res: Response): BoundedWrites =>
  boundedWrites(res, res.app.locals.streamWriteTimeoutMs as number);
