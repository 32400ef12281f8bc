// An event stream's answer while it lasts: its writes, and the end that lets go of everything it holds, once, however
// it comes (the client leaves or reads too slowly, the feed ends it, shutdown, the token expires).
import type { Request, Response } from 'express';
import type { BoundedWrites } from '../http/bounded-writes.ts';

/** A stream whose client reads slower than changes come is ended; it reconnects with Last-Event-ID and catches up. */
const maxBuffered = 1024 * 1024;

export interface StreamLifetime {
  /** True once the stream has let go of what it holds: nothing more is written. */
  readonly released: boolean;
  /** Writes `text`, and ends the stream when its client has fallen too far behind. */
  write(text: string): void;
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
      if (res.writableLength > maxBuffered) end();
    },
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
