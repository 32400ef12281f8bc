// The pool's PostgreSQL client: bounded to connect, to answer each statement and each cursor fetch, and torn down when it does not answer.
import pg from 'pg';
import Cursor from 'pg-cursor';
import { boundedCursor } from './bounded-cursor.ts';

export interface ClientBounds {
  /** Longest wait for a new connection to open. */
  connectMs: number;
  /** Longest wait for the answer to one statement, or to one fetch of a cursor. */
  answerMs: number;
}

/**
 * A class for pg-pool's documented `Client` option (`new Pool({ Client })`; pg-pool constructs it with the pool's own
 * options). Each bound is one `pg` offers: the connect bound is the client's `connectionTimeoutMillis` (the pool's is
 * the wait for a free connection), a statement's is `pg`'s per-query `query_timeout` (brianc/node-postgres#3074), and
 * a client is torn down with its public `end()`, which destroys the socket of a client with a query in flight.
 *
 * What `pg` has no option for, and why `query` is overridden: a statement whose answer never came (a cut network)
 * leaves its client busy, and pg-pool would hand that client out again, late answer still in flight — so the client
 * ends itself. And `pg` times a cursor from its submission to its close, which would cut every list that streams for
 * longer than the bound: so the bound is given per statement, none to a cursor, and each of its fetches is bounded
 * instead. Kysely (under MikroORM) submits its statements and cursors here. test/api/database-partition.test.ts fails
 * if a client left without an answer stays in the pool or a cursor's fetch is not bounded, test/api/long-list.test.ts
 * if a cursor is cut after the statement bound.
 */
export function boundedClientClass({ connectMs, answerMs }: ClientBounds): typeof pg.Client {
  return class BoundedClient extends pg.Client {
    constructor(options: pg.ClientConfig) {
      super({ ...options, connectionTimeoutMillis: connectMs });
    }

    override query(...args: unknown[]): never {
      const [config, ...rest] = args;
      if (config instanceof Cursor) {
        return super.query(boundedCursor(config, answerMs, () => void this.end()) as never, ...rest as [never]) as never;
      }
      // Any other submittable is the caller's to bound.
      if (typeof (config as Partial<pg.Submittable> | null)?.submit === 'function') return super.query(...args as [never]) as never;
      const statement = typeof config === 'string' ? { text: config } : config as pg.QueryConfig;
      const result = super.query({ query_timeout: answerMs, ...statement } as pg.QueryConfig, ...rest as [never]) as unknown;
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if ((error as Error | undefined)?.message === 'Query read timeout') void this.end();
        });
      }
      return result as never;
    }
  };
}
