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

/** `freeSlot` frees the stream's slot, the first thing it holds. */
export function streamLifetime(req: Request, res: Response, writes: BoundedWrites,
  freeSlot: () => void): StreamLifetime {
  const held = [freeSlot];
  // `released` a plain property, not a getter: V8 keeps an object literal with an accessor in dictionary mode, a few
  // hundred bytes more for every open stream.
  const lifetime = {
    released: false,
    write(text: string) {
      if (lifetime.released) return;
      writes.write(text);
    },
    behind: () => res.writableLength > maxBuffered,
    end: () => {
      if (release()) res.end();
    },
    release: () => release(),
    hold(letGo: () => void) {
      if (lifetime.released) letGo();
      else held.push(letGo);
    },
  };
  const release = () => {
    if (lifetime.released) return false;
    lifetime.released = true;
    for (const letGo of held) letGo();
    req.socket.off('end', end);
    return true;
  };
  const { end } = lifetime;
  // Each comes once at most, and `end` acts once: `on`, without a wrapper per listener held for the stream's life.
  res.on('close', end);
  // A client that closes its connection has gone: connections may be half-open (lifecycle/service-ports.ts), so its FIN
  // alone does not close the answer, and an idle stream would notice only when a keep-alive write failed.
  req.socket.on('end', end);
  return lifetime;
}
