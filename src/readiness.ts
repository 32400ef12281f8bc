// The database's readiness as probes see it: one check at a time for any number of probes, answered within a bound.
import type { MikroORM } from '@mikro-orm/core';

/**
 * Longest a readiness probe waits for the database's answer. Balancers and orchestrators give their probes a second
 * or two; under load a round trip may take longer (1.3 s measured), and a probe they time out counts as a failure.
 */
const probeBoundMs = 1000;
/** How old the last check's answer may be to stand in for one that is late. */
const lastAnswerMaxAgeMs = 5000;

export type Readiness = () => Promise<boolean>;

/**
 * Probes that arrive while a check is under way share it rather than each sending `select 1`. One that gets no
 * answer within the bound is answered with the last check's result while that is recent, else not ready: a database
 * that slow is in no state to serve.
 */
export function databaseReadiness(orm: MikroORM): Readiness {
  let checking: Promise<boolean> | undefined;
  let last: { ready: boolean; at: number } | undefined;
  const check = (): Promise<boolean> => {
    checking ??= orm.checkConnection().then(({ ok }) => ok, () => false).then((ready) => {
      last = { ready, at: Date.now() };
      checking = undefined;
      return ready;
    });
    return checking;
  };
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), probeBoundMs); });
    const answer = await Promise.race([check(), late]).finally(() => clearTimeout(timer));
    if (answer !== undefined) return answer;
    return last !== undefined && Date.now() - last.at < lastAnswerMaxAgeMs && last.ready;
  };
}
