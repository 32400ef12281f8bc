// Readiness as probes see it: each dependency checked one at a time for any number of probes, answered within a bound.
import type { MikroORM } from '@mikro-orm/core';
import { expectedMigration, migrationStateSql } from '../db/migration-state.ts';

/**
 * Longest a readiness probe waits for an answer. Balancers and orchestrators give their probes a second or two;
 * under load a round trip may take longer (1.3 s measured), and a probe they time out counts as a failure.
 */
export const probeBoundMs = 1000;
/** How old the last check's answer may be to stand in for one that is late. */
const lastAnswerMaxAgeMs = 5000;

export type ComponentState = 'UP' | 'DOWN';

/**
 * Probes that arrive while a check is under way share it rather than each sending their own. One that gets no
 * answer within the bound is answered with the last check's result while that is recent, else `late`: a dependency
 * that slow is in no state to serve.
 */
export function sharedProbe<T>(check: () => Promise<T>, late: T): () => Promise<T> {
  let checking: Promise<T> | undefined;
  let last: { answer: T; at: number } | undefined;
  const start = (): Promise<T> => {
    checking ??= check().then((answer) => {
      last = { answer, at: Date.now() };
      checking = undefined;
      return answer;
    });
    return checking;
  };
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined),
      probeBoundMs); });
    const answer = await Promise.race([start(), timeout]).finally(() => clearTimeout(timer));
    if (answer !== undefined) return answer;
    return last !== undefined && Date.now() - last.at < lastAnswerMaxAgeMs ? last.answer : late;
  };
}

export interface DatabaseState {
  database: ComponentState;
  /** UP when the database has applied this build's newest migration; DOWN when it has not, or cannot say. */
  migrations: ComponentState;
  /** How many migrations the database has applied (metrics), when it answered. */
  applied?: number;
}

/** The database and its migrations, in one statement (it never fails: a failure is DOWN). */
export function databaseReadiness(orm: MikroORM): () => Promise<DatabaseState> {
  const down: DatabaseState = { database: 'DOWN', migrations: 'DOWN' };
  return sharedProbe(async () => {
    try {
      const [row] = await orm.em.getConnection().execute<{ migrated: boolean; applied: number }[]>(migrationStateSql,
        [expectedMigration]);
      return { database: 'UP', migrations: row?.migrated ? 'UP' : 'DOWN', applied: row?.applied } as DatabaseState;
    } catch {
      return down;
    }
  }, down);
}
