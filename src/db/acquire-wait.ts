// How long each statement waited for a pooled connection: from MikroORM's `onQuery` hook (the statement is about to
// be sent) to its `onReserveConnection` hook (a connection was handed to it).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Options } from '@mikro-orm/core';
import { requestStatements } from './read-routing.ts';

/**
 * `onQuery` runs synchronously as a statement is prepared, before the driver asks the pool; the driver's acquire (and
 * so `onReserveConnection`) continues the statement's async context. In a request the time is kept in the request's
 * own store (src/db/read-routing.ts), not in a context of its own per statement, which would copy the request's
 * context for every statement: a statement's wait is from the request's latest `onQuery` before its connection came,
 * which for two statements asked at once (a page and its count) is within the same moment. Outside a request, the
 * time is kept in the statement's own context. A statement inside a transaction reuses the transaction's connection:
 * no acquire, no sample.
 */
export function acquireWaitHooks(observe: (seconds: number) => void): Pick<Options, 'onQuery' | 'onReserveConnection'> {
  const asked = new AsyncLocalStorage<number>();
  const reserved = (): void => {
    const request = requestStatements();
    const since = request ? request.askedAt : asked.getStore();
    if (since !== undefined) observe((performance.now() - since) / 1000);
  };
  return {
    onQuery(sql) {
      const request = requestStatements();
      if (request) request.askedAt = performance.now();
      else asked.enterWith(performance.now());
      return sql;
    },
    // Not async, though MikroORM's type asks for a promise: its callers (kysely's driver, src/db/named-statements.ts)
    // await what it answers, and a promise per statement would be made for nothing to wait for.
    onReserveConnection: reserved as unknown as (connection: unknown) => Promise<void>,
  };
}
