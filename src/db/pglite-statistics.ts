// PGlite runs no autovacuum, so nothing refreshed the planner's statistics as rows came: a table grown from the demo
// data's few rows to tens of thousands was still planned as a few, and a query by example of a common word read and
// joined every match for each batch of 200 (seconds where milliseconds do). The service analyzes as autovacuum would.
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { Logger } from '../observability/logger.ts';

/**
 * The tables changed by more rows since their last analyze than autovacuum's own threshold (its settings, which PGlite
 * has and never acts on): `autovacuum_analyze_threshold` + `autovacuum_analyze_scale_factor` × the table's rows.
 */
const dueTables = `select s.relid::regclass::text as "table"
  from pg_stat_user_tables as s join pg_class as c on c.oid = s.relid
  where s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
    + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)`;

export interface StatisticsKeeper {
  /** Ends the checks and waits for the one under way, so none outlives the database. */
  stop(): Promise<void>;
}

/**
 * Checks at once, then every `intervalMs`, and analyzes the tables that are due. An analyze reads a sample (30,000 rows
 * at most), so it holds the event loop PGlite shares with the requests briefly, whatever the table's size.
 */
export function keepStatisticsFresh(orm: MikroORM, logger: Logger, intervalMs = 10_000): StatisticsKeeper {
  const connection = (orm.em as SqlEntityManager).getConnection();
  let running: Promise<void> | undefined;
  const check = () => {
    running ??= (async () => {
      const due = await connection.execute<{ table: string }[]>(dueTables);
      // The name as regclass spells it: quoted where it needs to be.
      for (const { table } of due) await connection.execute(`analyze ${table}`);
    })().catch((error: unknown) => logger.warn({ err: error }, 'could not refresh the embedded database\'s statistics'))
      .finally(() => { running = undefined; });
  };
  check();
  const timer = setInterval(check, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
