// Tells the other instances sharing the database that this one committed changes: one `NOTIFY` after each burst of
// commits, in a transaction of its own. A `NOTIFY` inside the write's transaction (a trigger, as before migration 0005)
// made every write in the database wait at commit for one lock PostgreSQL holds from each notifying commit's start to
// its WAL flush: writes committed one at a time, whatever the cores.
import { AsyncResource } from 'node:async_hooks';
import type { MikroORM } from '@mikro-orm/core';
import { onCommit } from '../db/commit-signal.ts';
import { namedStatement, runNamed } from '../db/named-statements.ts';
import type { Logger } from '../observability/logger.ts';

const notifyStatement = namedStatement('notify record_change');

export interface CommitAnnouncer {
  /** Stops listening for commits and waits for the announcement under way, so none outlives the pool. */
  stop(): Promise<void>;
}

/**
 * One announcement at a time: commits made while one is on its way are told by the next, sent as soon as it returns.
 * A lost one (a failed statement, a crash right after a commit) delays the other instances' events by their poll, a
 * second at most (src/feed/change-feed.ts), never loses one: they read the history itself.
 */
export function announceCommits(orm: MikroORM, logger: Logger): CommitAnnouncer {
  let sending: Promise<void> | undefined;
  let again = false;
  // Bound to the start's context, not to the request whose commit it announces: no request's span, routing or end is
  // its. Named, as a record's writes are: under load one goes out for every few commits, and the ORM's own path cost
  // more.
  const send = AsyncResource.bind((): Promise<void> => runNamed(orm.em, notifyStatement, []).then(
    () => undefined,
    (error: unknown) => logger.warn({ err: error },
      'could not tell the other instances of a commit; their poll will find it'),
  ).then(() => {
    if (!again) return void (sending = undefined);
    again = false;
    sending = send();
  }));
  const forget = onCommit(() => {
    if (sending) again = true;
    else sending = send();
  });
  return {
    async stop() {
      forget();
      again = false;
      while (sending) await sending;
    },
  };
}
