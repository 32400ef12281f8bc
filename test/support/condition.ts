// Waits for a condition, never for a fixed time: checked every few milliseconds until it holds or its deadline passes.
import { setTimeout as delay } from 'node:timers/promises';

export interface Deadline {
  /** How long the condition may take to hold, in ms: a bound for a loaded machine, not an expectation. */
  within?: number;
  /** What is waited for, for the error when the deadline passes. */
  what?: string;
}

/**
 * Resolves with the first truthy value `check` gives; rejects once `within` ms (default 60 s, below mocha's
 * timeout) have passed without one, saying what was waited for.
 */
export async function eventually<T>(check: () => T | Promise<T>, deadline: Deadline = {}): Promise<NonNullable<T>> {
  const { within = 60_000, what = 'the condition' } = deadline;
  const until = performance.now() + within;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (performance.now() > until) throw new Error(`${what} did not hold within ${within} ms`);
    await delay(20);
  }
}

/**
 * What `check` answers once `holds` is true of it, or its answer after `within` ms, for the assertion to show (its
 * diff says what was there instead, where `eventually` could only say that the condition did not hold). This deadline
 * starts before `eventually`'s own, so it always passes first.
 */
export async function onceOrLast<T>(check: () => Promise<T>, holds: (value: T) => boolean, within: number): Promise<T> {
  const until = performance.now() + within;
  const { value } = await eventually(async () => {
    const answer = await check();
    return holds(answer) || performance.now() > until ? { value: answer } : undefined;
  }, { within });
  return value;
}
