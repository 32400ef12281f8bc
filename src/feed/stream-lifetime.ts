// An event stream's answer while it lasts: its writes, and the end that lets go of everything it holds, once, however
// it comes (the client leaves or stops reading, the feed ends it, shutdown, the token expires).
import type { Request, Response } from 'express';
import type { BoundedWrites } from '../http/bounded-writes.ts';

/**
 * A stream whose client has more than this waiting for it is behind: the feed stops giving it events as it reads them
 * and the stream reads the history on its own, as its client takes it (src/feed/change-feed.ts). Its buffer stays
 * about this plus one read's events, however fast changes come.
 */
const maxBuffered = 1024 * 1024;

export interface StreamLifetime {
  /** True once the stream has let go of what it holds: nothing more is written. */
  readonly released: boolean;
  /** Writes `text` (a client that takes nothing is cut off: src/http/bounded-writes.ts). */
  write(text: string): void;
  /** Whether more than a bound waits in the client's buffer: it takes less than it is sent. */
  behind(): boolean;
  /** Lets go of what the stream holds and ends the answer. */
  end(): void;
  /** Lets go of what the stream holds without ending the answer; false when that was done before. */
  release(): boolean;
  /** Adds something the stream holds (a subscription, a timer), let go of when it ends; at once if it has. */
  hold(letGo: () => void): void;
}

/**
 * The lifetime of a stream whose slot `freeSlot` frees (the first thing it holds). A class: its methods are shared,
 * where an object of closures held six of them and their context for every open stream. `released` is a plain
 * property, not a getter: V8 keeps an object with an accessor of its own in dictionary mode, larger for every stream.
 */
class Lifetime implements StreamLifetime {
  released = false;
  readonly #res: Response;
  readonly #socket: Request['socket'];
  readonly #writes: BoundedWrites;
  readonly #held: Array<() => void>;

  constructor(req: Request, res: Response, writes: BoundedWrites, freeSlot: () => void) {
    this.#res = res;
    this.#socket = req.socket;
    this.#writes = writes;
    this.#held = [freeSlot];
    // Each comes once at most, and `end` acts once: `on`, without a wrapper per listener held for the stream's life.
    res.on('close', this.end);
    // A client that closes its connection has gone: connections may be half-open (lifecycle/service-ports.ts), so its
    // FIN alone does not close the answer, and an idle stream would notice only when a keep-alive write failed.
    this.#socket.on('end', this.end);
  }

  write(text: string): void {
    if (!this.released) this.#writes.write(text);
  }

  behind(): boolean {
    return this.#res.writableLength > maxBuffered;
  }

  /** Bound to the stream: it is handed on as a listener and to whatever ends the stream. */
  readonly end = (): void => {
    if (this.release()) this.#res.end();
  };

  release(): boolean {
    if (this.released) return false;
    this.released = true;
    for (const letGo of this.#held) letGo();
    this.#socket.off('end', this.end);
    return true;
  }

  hold(letGo: () => void): void {
    if (this.released) letGo();
    else this.#held.push(letGo);
  }
}

/** `freeSlot` frees the stream's slot, the first thing it holds. */
export const streamLifetime = (req: Request, res: Response, writes: BoundedWrites, freeSlot: () => void):
  StreamLifetime => new Lifetime(req, res, writes, freeSlot);
