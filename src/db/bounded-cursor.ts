// A `pg` cursor (a list's stream) whose every fetch, and its close, is bounded in time.
import type Cursor from 'pg-cursor';

/**
 * Each fetch that gets no answer in time tears the connection down and fails as `pg`'s own `query_timeout` does.
 * Closing waits for the server too, so it is bounded as well; a connection torn down has nothing left to close.
 * Only the cursor's public `read` and `close` are wrapped, on this one instance.
 */
export function boundedCursor(cursor: Cursor, ms: number, tearDown: () => void): Cursor {
  const read = cursor.read.bind(cursor) as (rows: number) => Promise<unknown[]>;
  const close = cursor.close.bind(cursor) as () => Promise<void>;
  let torn = false;
  const within = <T>(start: () => Promise<T>, onTimeout: () => T | Promise<T>): Promise<T> => {
    // Nothing more is asked of a connection torn down.
    if (torn) return Promise.resolve().then(onTimeout);
    const wait = start();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<T>((resolve) => {
      timer = setTimeout(() => { torn = true; tearDown(); resolve(onTimeout()); }, ms);
    });
    return Promise.race([wait, late]).finally(() => clearTimeout(timer));
  };
  cursor.read = ((rows: number) => within(() => read(rows), () => Promise.reject(new Error('Query read timeout')))) as Cursor['read'];
  cursor.close = (() => within(() => close(), () => undefined)) as Cursor['close'];
  return cursor;
}
