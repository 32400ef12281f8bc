// Bounds every wait on PostgreSQL (a free connection, a new connection, a statement), so a lost database is a 503 in seconds.
import type { Config } from '../config.ts';
import { boundedCursor, isCursor, type Cursor } from './bounded-cursor.ts';

type Settings = Pick<Config, 'DB_ACQUIRE_TIMEOUT_MS' | 'DB_CONNECT_TIMEOUT_MS' | 'DB_STATEMENT_TIMEOUT_MS'>;

interface PgClient {
  query(...args: unknown[]): unknown;
  connectionParameters: { query_timeout?: number };
  connection: { stream: { destroy(): void } };
}
type PgClientClass = new (options: Record<string, unknown>) => PgClient;

/**
 * pg-pool's `connectionTimeoutMillis` bounds the wait for a free connection; each client gets its own connect bound
 * (pg-pool hands clients its options, so the client class is wrapped to give them theirs). A statement is bounded
 * twice: by the server (`statement_timeout`, SQLSTATE 57014) and, for a network that is cut rather than refusing,
 * where no answer ever comes, by the client (`query_timeout`). A connection whose query timed out is torn down,
 * so the pool never hands it out again with the late answer still in flight. A cursor (the lists' stream) gets no
 * `query_timeout` from `pg`: each of its fetches is bounded here instead.
 */
/** `onPool` sees each pool as it is made (metrics count its connections). */
export function boundedWaits(settings: Settings, onPool: (pool: object) => void = () => {}): Record<string, unknown> {
  return {
    connectionTimeoutMillis: settings.DB_ACQUIRE_TIMEOUT_MS,
    statement_timeout: settings.DB_STATEMENT_TIMEOUT_MS,
    // Slightly later than the server's own bound, so a reachable server answers 57014 first.
    query_timeout: settings.DB_STATEMENT_TIMEOUT_MS + 1000,
    onPoolCreated(pool: { Client: PgClientClass }) {
      onPool(pool);
      const Base = pool.Client;
      pool.Client = class BoundedClient extends Base {
        constructor(options: Record<string, unknown>) {
          super({ ...options, connectionTimeoutMillis: settings.DB_CONNECT_TIMEOUT_MS });
        }

        /** `pg` times a submitted cursor from its first fetch to its close, like the server: not with this bound. */
        #submitUnbounded(cursor: Cursor): void {
          const bound = this.connectionParameters.query_timeout;
          this.connectionParameters.query_timeout = undefined;
          try {
            super.query(cursor);
          } finally {
            this.connectionParameters.query_timeout = bound;
          }
        }

        override query(...args: unknown[]): unknown {
          if (isCursor(args[0])) {
            // The server's statement_timeout (and `pg`'s query_timeout) run from a cursor's first fetch to its close,
            // so they would cut every list that streams for longer than the bound: they are lifted while the cursor is
            // open, and each fetch is bounded here. One statement at a time: the cursor goes once the bound is lifted.
            const cursor = args[0];
            const opened = (super.query('set statement_timeout = 0') as Promise<unknown>).then(() => this.#submitUnbounded(cursor));
            // Its failure is the first read's to report.
            opened.catch(() => {});
            const reset = () => (super.query('reset statement_timeout') as Promise<unknown>).then(() => {}, () => {});
            return boundedCursor(cursor, opened, settings.DB_STATEMENT_TIMEOUT_MS + 1000, () => this.connection.stream.destroy(), reset);
          }
          const result = super.query(...args);
          if (result instanceof Promise) {
            result.catch((error: unknown) => {
              if ((error as Error)?.message === 'Query read timeout') this.connection.stream.destroy();
            });
          }
          return result;
        }
      };
    },
  };
}
