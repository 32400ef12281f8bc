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
 * A client that takes none of what was written for `stallMs` (`STREAM_WRITE_TIMEOUT_MS`) is cut off: its
 * connection is destroyed, so the answer's `close` fires and whatever it held (a cursor, a subscription) is let go.
 * The bound starts when a write finds the buffer full and ends at the client's next `drain`: a slow reader that keeps
 * reading is never cut, one that stopped is, however little it was sent.
 */
export function boundedWrites(res: ServerResponse, stallMs: number): BoundedWrites {
  let stalled: NodeJS.Timeout | undefined;
  /** The last write found the buffer full; a `drain` has not come since. */
  let full = false;
  const waiting = new Set<(taken: boolean) => void>();
  const settle = (taken: boolean) => {
    clearTimeout(stalled);
    stalled = undefined;
    full = false;
    for (const resolve of waiting) resolve(taken);
    waiting.clear();
  };
  // One listener each for the answer's life, never added per wait: a compressing middleware (src/http/compression.ts)
  // moves `drain` listeners onto its compressor, where removing them from the answer would not reach.
  res.on('drain', () => settle(true));
  // An answer closes once: no `once` wrapper held for the stream's life.
  res.on('close', () => settle(false));
  const gone = () => res.destroyed || res.writableEnded;
  // Methods only, no getter: V8 keeps an object literal with an accessor in dictionary mode, larger for every stream.
  return {
    gone,
    write(text) {
      if (gone()) return false;
      if (res.write(text)) return true;
      full = true;
      stalled ??= setTimeout(() => res.destroy(), stallMs);
      return false;
    },
    drained() {
      if (gone()) return Promise.resolve(false);
      if (!full) return Promise.resolve(true);
      return new Promise((resolve) => waiting.add(resolve));
    },
  };
}

/** A response's writes bounded by the application's `STREAM_WRITE_TIMEOUT_MS` (kept in `app.locals` by createApp). */
export const responseWrites = (res: Response): BoundedWrites =>
  boundedWrites(res, res.app.locals.streamWriteTimeoutMs as number);
