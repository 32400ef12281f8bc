// A `pg` cursor (a list's stream) whose every fetch, and its close, is bounded in time.

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
export function boundedCursor(cursor: Cursor, opened: Promise<void>, ms: number, tearDown: () => Promise<void>,
  end: () => Promise<void>): Cursor {
  const read = cursor.read.bind(cursor);
  const close = cursor.close.bind(cursor);
  let torn = false;
  const within = <T>(start: () => Promise<T>, onTimeout: () => T | Promise<T>): Promise<T> => {
    // Nothing more is asked of a connection torn down.
    if (torn) return Promise.resolve().then(onTimeout);
    const wait = start();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<T>((resolve) => {
      timer = setTimeout(() => { torn = true; void tearDown().then(() => resolve(onTimeout())); }, ms);
    });
    return Promise.race([wait, late]).finally(() => clearTimeout(timer));
  };
  // A cursor that could not be opened fails its first read with the reason, and has nothing to close.
  cursor.read = (rows) => within(() => opened.then(() => read(rows)),
    () => Promise.reject(new Error('Query read timeout')));
  // Done before the connection goes back to the pool: the cursor's transaction (and its lifted bound) ends, also when
  // it could not be opened.
  cursor.close = () => within(() => opened.then(() => close().then(end), end), () => undefined);
  return cursor;
}
