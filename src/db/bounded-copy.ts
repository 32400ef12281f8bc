// A `COPY … TO STDOUT` (pg-copy-streams) whose every wait for bytes, like a cursor's every fetch, is bounded in time.
import { Readable } from 'node:stream';
import { settledWithin } from './bounded-cursor.ts';

/** What `query` answers for a COPY out on the service's connections (src/db/bounded-waits.ts). */
export interface BoundedCopy {
  /** Settles once its transaction has begun (the statement is then sent), or has failed to. */
  begun(): Promise<void>;
  /** The next bytes as PostgreSQL wrote them; undefined after the last. */
  next(): Promise<Buffer | undefined>;
  /**
   * Ends the COPY's transaction once every byte was read; before that (its reader stopped: the client has gone),
   * cancels the statement and tears the connection down, since the server may still be sending rows on it.
   */
  close(): Promise<void>;
}

/** pg-copy-streams' COPY TO: a readable stream that pg submits as a query. */
export const isCopyOut = (value: unknown): value is Readable & { submit(connection: unknown): void } =>
  value instanceof Readable && typeof (value as { submit?: unknown }).submit === 'function';

/**
 * `copy` read once `opened` (its transaction begun) has settled. Each wait for bytes gets `ms`: a wait past it tears
 * the connection down and fails as a statement past its bound does. Time the reader takes between two reads is not
 * counted: while it does not ask, the stream takes nothing from the server, which then waits for it.
 */
export function boundedCopy(copy: Readable, opened: Promise<void>, ms: number, tearDown: () => Promise<void>,
  end: () => Promise<void>): BoundedCopy {
  const chunks = copy[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let finished = false;
  let torn = false;
  const giveUp = () => {
    if (torn) return Promise.resolve();
    torn = true;
    return tearDown();
  };
  const within = <T>(answer: Promise<T>) => settledWithin(answer, ms,
    () => giveUp().then((): never => { throw new Error('Query read timeout'); }));
  return {
    begun: () => (torn ? Promise.reject(new Error('Query read timeout')) : within(opened)),
    next() {
      if (torn) return Promise.reject(new Error('Query read timeout'));
      return within(opened.then(() => chunks.next()).then(({ done, value }) => {
        finished = done === true;
        return finished ? undefined : value;
      }));
    },
    async close() {
      if (finished) return end();
      // The stream's own failure, once it is destroyed, is nobody's to report.
      copy.on('error', () => {});
      await giveUp();
    },
  };
}
