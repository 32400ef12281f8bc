// Waits for a condition, never for a fixed time: checked every few milliseconds until it holds (mocha's timeout bounds it).
import { setTimeout as delay } from 'node:timers/promises';

/** Resolves with the first truthy value `check` gives. */
export async function eventually<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await delay(20);
  }
}
