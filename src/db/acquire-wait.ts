// How long each statement waited for a pooled connection: from MikroORM's `onQuery` hook (the statement is about to
// be sent) to its `onReserveConnection` hook (a connection was handed to it).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Options } from '@mikro-orm/core';

/**
 * `onQuery` runs synchronously as a statement is prepared, before the driver asks the pool; the time is kept in the
 * statement's own async context, which the driver's acquire (and so `onReserveConnection`) continues. A statement
 * inside a transaction reuses the transaction's connection: no acquire, no sample.
 */
export function acquireWaitHooks(observe: (seconds: number) => void): Pick<Options, 'onQuery' | 'onReserveConnection'> {
  const asked = new AsyncLocalStorage<number>();
  return {
    onQuery(sql) {
      asked.enterWith(performance.now());
      return sql;
    },
    async onReserveConnection() {
      const since = asked.getStore();
      if (since !== undefined) observe((performance.now() - since) / 1000);
    },
  };
}
