// A `pg` cursor (a list's stream) whose every fetch, and its close, is bounded in time.
import { boundTimer } from './bound-timer.ts';

export interface Cursor {
  submit(connection: unknown): void;
  read(rows: number): Promise<unknown[]>;
  close(): Promise<void>;
}

export const isCursor = (value: unknown): value is Cursor =>
  typeof (value as Cursor | undefined)?.read === 'function' && typeof (value as Cursor).submit === 'function';

/**
 * Each fetch that gets no answer in time has its statement cancelled and its connection torn down (`tearDown`), then
 * fails as `pg`'s own `query_timeout` does.
 * Closing waits for the server too, so it is bounded as well; a connection torn down has nothing left to close.
 */
/**
 * Settles as `answer` does, or after `ms` as `late` does (it tears the connection down). From then on the answer is
 * nobody's to report: the cancel `late` sends makes it fail at once, and passing that on would release the connection
 * to the pool before it is torn down, for the next request to find it closed.
 */
export function settledWithin<T>(answer: Promise<T>, ms: number, late: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = boundTimer(ms, () => {
      if (settled) return;
      settled = true;
      late().then(resolve, reject);
    });
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      then();
    };
    answer.then((value) => settle(() => resolve(value)), (error: unknown) => settle(() => reject(error as Error)));
  });
}

export function boundedCursor(cursor: Cursor, opened: Promise<void>, ms: number, tearDown: () => Promise<void>,
  end: () => Promise<void>): Cursor {
  const read = cursor.read.bind(cursor);
  const close = cursor.close.bind(cursor);
  let torn = false;
  const within = <T>(start: () => Promise<T>, onTimeout: () => T | Promise<T>): Promise<T> => {
    // Nothing more is asked of a connection torn down.
    if (torn) return Promise.resolve().then(onTimeout);
    return settledWithin(start(), ms, () => {
      torn = true;
      return tearDown().then(onTimeout);
    });
  };
  // A cursor that could not be opened fails its first read with the reason, and has nothing to close.
  cursor.read = (rows) => within(() => opened.then(() => read(rows)),
    () => Promise.reject(new Error('Query read timeout')));
  // Done before the connection goes back to the pool: the cursor's transaction (and its lifted bound) ends, also when
  // it could not be opened.
  cursor.close = () => within(() => opened.then(() => close().then(end), end), () => undefined);
  return cursor;
}
