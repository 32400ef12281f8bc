// Places committed history entries in commit order: the change feed's event ids (`position`).
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';

/** The advisory lock one placing run holds to its commit (any fixed bigint; advisory locks are per database). */
export const placingLock = 7305614298611;
/** Entries placed per statement, so none nears DB_STATEMENT_TIMEOUT_MS however many wait. */
const batch = 5000;

/**
 * Ids from a sequence are not in commit order when transactions overlap: a reader resuming after 42 could skip a 41
 * committed later. So entries are placed after they commit, by runs that take one lock in turn: a run sees every
 * entry committed before it began and places them after everything placed before, in one commit. A reader that has
 * seen place N has seen every place below it, and no later run places anything below N. Writers never wait for
 * this; a run waits for the one before it. Any instance may run it: each does before it reads
 * (src/feed/change-feed.ts).
 */
export async function placeCommitted(em: EntityManager): Promise<void> {
  while (await placeSome(em) === placedPerRun);
}

/** Entries one placing run places at most. */
export const placedPerRun = batch;

/**
 * One placing run, in one commit: up to `placedPerRun` of the oldest unplaced entries. Answers how many it placed
 * (fewer than `placedPerRun`: none was left when it began). The feed delivers what one run placed before the next.
 */
export async function placeSome(em: EntityManager): Promise<number> {
  const connection = (em as SqlEntityManager).getConnection('write');
  return connection.transactional(async (trx) => {
    await connection.execute('select pg_advisory_xact_lock(?)', [placingLock], 'run', trx);
    const result = await connection.execute(`update "record_change" as "c" set "position" = "p"."position"
      from (select "event_id", nextval('record_change_position_seq') as "position"
        from (select "event_id" from "record_change" where "position" is null
          order by "event_id" limit ${batch}) as "u") as "p"
      where "c"."event_id" = "p"."event_id"`, [], 'run', trx) as { affectedRows?: number };
    return result.affectedRows ?? 0;
  });
}
