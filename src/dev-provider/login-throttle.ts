// Failed logins per user and per address: answered more slowly, then refused for a while (429, `Retry-After`).
import { setTimeout as delay } from 'node:timers/promises';

/** The realm's brute-force settings (a Keycloak realm export's names), which the throttle follows. */
export interface BruteForceSettings {
  bruteForceProtected?: boolean;
  failureFactor?: number;
  waitIncrementSeconds?: number;
  maxFailureWaitSeconds?: number;
}

interface Failures { count: number; lockouts: number; lockedUntil: number }

// Keycloak's defaults where the export says nothing.
const defaults = { failureFactor: 30, waitIncrementSeconds: 60, maxFailureWaitSeconds: 900 };
// An address tries many users: it may fail this many times more often than one user before it is refused.
const addressFactor = 4;
// The first failed answers are slowed by this much, doubling with each failure, up to `maxSlowdownMs`.
const firstSlowdownMs = 100;
const maxSlowdownMs = 2000;
// Memory is bounded: beyond this many users and addresses, the oldest entries are forgotten.
const maxEntries = 10_000;

export class LoginThrottle {
  readonly #enabled: boolean;
  readonly #failureFactor: number;
  readonly #waitIncrementMs: number;
  readonly #maxWaitMs: number;
  readonly #failures = new Map<string, Failures>();

  constructor(settings: BruteForceSettings) {
    this.#enabled = settings.bruteForceProtected === true;
    this.#failureFactor = settings.failureFactor ?? defaults.failureFactor;
    this.#waitIncrementMs = (settings.waitIncrementSeconds ?? defaults.waitIncrementSeconds) * 1000;
    this.#maxWaitMs = (settings.maxFailureWaitSeconds ?? defaults.maxFailureWaitSeconds) * 1000;
  }

  /** Seconds until the user or the address may try again (for `Retry-After`), or 0 when it may try now. */
  refusedFor(username: string, address: string | undefined, now = Date.now()): number {
    if (!this.#enabled) return 0;
    const user = this.#failures.get(userKey(username))?.lockedUntil ?? 0;
    const until = Math.max(user, this.#failures.get(addressKey(address))?.lockedUntil ?? 0);
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  /**
   * Counts a failure of the user and of the address, and waits the slowdown it has earned before its answer. The
   * `failureFactor`-th failure of a user (`addressFactor` times that of an address) refuses it for `waitIncrement`
   * times its lockouts so far, at most `maxFailureWait`, as Keycloak's brute-force detection does.
   */
  async failed(username: string, address: string | undefined): Promise<void> {
    if (!this.#enabled) return;
    const user = this.#count(userKey(username), this.#failureFactor);
    this.#count(addressKey(address), this.#failureFactor * addressFactor);
    await delay(Math.min(firstSlowdownMs * 2 ** (user.count - 1), maxSlowdownMs));
  }

  /** A user's right password ends its failures (an address's stay: an attacker may hold one account of its own). */
  succeeded(username: string): void {
    this.#failures.delete(userKey(username));
  }

  #count(key: string, factor: number, now = Date.now()): Failures {
    const entry = this.#failures.get(key) ?? { count: 0, lockouts: 0, lockedUntil: 0 };
    // Re-inserted: a Map iterates in insertion order, so the first key is the one that failed longest ago.
    this.#failures.delete(key);
    if (this.#failures.size >= maxEntries) this.#failures.delete(this.#failures.keys().next().value!);
    entry.count += 1;
    if (entry.count >= factor) {
      entry.lockouts += 1;
      entry.lockedUntil = now + Math.min(this.#waitIncrementMs * entry.lockouts, this.#maxWaitMs);
      entry.count = 0;
    }
    this.#failures.set(key, entry);
    return entry;
  }
}

// Usernames are compared without case, as the directory does; a long one is cut, which only groups it with others.
const userKey = (username: string) => `user ${username.slice(0, 255).toLowerCase()}`;
const addressKey = (address: string | undefined) => `address ${address ?? 'unknown'}`;
