// The realm's signing keys, fetched by the service on a schedule and on an unknown key id, each fetch bounded in time.
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import Keycloak from 'keycloak-connect';
import type { Logger } from '../observability/logger.ts';
import { logText } from '../observability/log-text.ts';

export interface RealmKeysOptions {
  /** `${serverUrl}/realms/${realm}`: the issuer, and where the certs endpoint is. */
  serverUrl: string;
  realm: string;
  audience: string;
  /** How often the keys are fetched: a key removed from the realm is trusted at most this plus `fetchTimeoutMs`. */
  refreshMs: number;
  /** A fetch that has not answered by then is given up (the keys held are kept). */
  fetchTimeoutMs: number;
  /** The least time between two fetches that tokens naming unknown key ids cause. */
  minFetchIntervalMs: number;
  logger: Logger;
  /** Called when a key the service held is no longer in the realm: what was verified with it must be forgotten. */
  onKeyRemoved(): void;
}

/** keycloak-connect's checker for tokens of one key, or why there is none. */
export type KeyLookup = Keycloak.Keycloak | 'unknown' | 'unavailable';

interface Jwk { kid?: unknown; kty?: unknown; use?: unknown; alg?: unknown; n?: unknown; e?: unknown }

// A realm holds a few keys (active, passive, rotated); a certs answer naming more is not kept whole.
const maxKeys = 20;
const maxKidLength = 256;

/**
 * keycloak-connect fetches the realm's keys itself only when a token names an unknown key id, at most every
 * `minTimeBetweenJwksRequests` (a window any client restarts with a random key id), without a timeout and never on a
 * schedule. So the service fetches them: with `realm-public-key` (keycloak.json's public setting) a keycloak-connect
 * instance per key checks the signature and the claims and never fetches anything itself.
 */
export class RealmKeys {
  readonly #options: RealmKeysOptions;
  readonly #certsUrl: string;
  #checkers = new Map<string, { spki: string; keycloak: Keycloak.Keycloak }>();
  #fetch: { started: number; done: Promise<void> } | undefined;
  #lastStarted = -Infinity;
  #failing = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: RealmKeysOptions) {
    this.#options = options;
    this.#certsUrl = `${options.serverUrl}/realms/${options.realm}/protocol/openid-connect/certs`;
  }

  /** The first fetch, then one every `refreshMs`; a failed first fetch is logged, and the schedule goes on. */
  async start(): Promise<void> {
    this.#timer ??= setInterval(() => void this.#refresh(), this.#options.refreshMs).unref();
    await this.#refresh();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * The checker of the key `kid` names. An unknown id waits for a fetch that starts after it arrived (so a key the
   * realm has just made is found), shared by every request waiting then; fetches are `minFetchIntervalMs` apart.
   */
  /** Whether keys are held and the last fetch succeeded: what readiness reports for the identity provider. */
  get reachable(): boolean {
    return !this.#failing && this.#checkers.size > 0;
  }

  async lookup(kid: string): Promise<KeyLookup> {
    const held = this.#checkers.get(kid);
    if (held) return held.keycloak;
    if (kid.length > maxKidLength) return 'unknown';
    const arrived = performance.now();
    while (this.#fetch && this.#fetch.started < arrived) await this.#fetch.done;
    if (!this.#fetch) {
      const wait = this.#lastStarted + this.#options.minFetchIntervalMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    // Requests that waited together share one fetch: whichever comes first starts it.
    await (this.#fetch?.done ?? this.#refresh());
    return this.#checkers.get(kid)?.keycloak ?? (this.#checkers.size ? 'unknown' : 'unavailable');
  }

  /** One fetch at a time; it never rejects: a failed fetch keeps the keys held, logged once until one succeeds. */
  #refresh(): Promise<void> {
    if (this.#fetch) return this.#fetch.done;
    const started = performance.now();
    this.#lastStarted = started;
    const done = this.#fetchKeys().then((keys) => {
      this.#replace(keys);
      if (this.#failing) this.#options.logger.info('the realm\'s signing keys can be fetched again');
      this.#failing = false;
    }, (error: unknown) => {
      const message = 'the realm\'s signing keys could not be fetched; the keys held stay in use';
      if (!this.#failing) this.#options.logger.warn({ err: error }, message);
      this.#failing = true;
    }).finally(() => { this.#fetch = undefined; });
    this.#fetch = { started, done };
    return done;
  }

  async #fetchKeys(): Promise<Map<string, string>> {
    const response = await fetch(this.#certsUrl, { signal: AbortSignal.timeout(this.#options.fetchTimeoutMs) });
    if (!response.ok) throw new Error(`the realm's certs endpoint answered ${response.status}`);
    const { keys } = await response.json() as { keys?: unknown };
    const spkis = new Map<string, string>();
    for (const jwk of (Array.isArray(keys) ? keys as Jwk[] : []).slice(0, maxKeys)) {
      // keycloak-connect checks RS256 signatures only; Keycloak also lists its encryption key (RSA-OAEP, use enc).
      if (jwk.kty !== 'RSA' || jwk.use === 'enc' || (jwk.alg ?? 'RS256') !== 'RS256') continue;
      if (typeof jwk.kid !== 'string' || !jwk.kid || jwk.kid.length > maxKidLength) continue;
      try {
        const key = createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e } as JsonWebKey, format: 'jwk' });
        spkis.set(jwk.kid, key.export({ type: 'spki', format: 'der' }).toString('base64'));
      } catch (error) {
        const message = 'a key of the realm is no RSA public key; it is skipped';
        this.#options.logger.warn({ err: error, kid: logText(jwk.kid) }, message);
      }
    }
    if (!spkis.size) throw new Error('the realm lists no RS256 signing key');
    return spkis;
  }

  #replace(keys: Map<string, string>): void {
    const { realm, serverUrl, audience } = this.#options;
    const next = new Map<string, { spki: string; keycloak: Keycloak.Keycloak }>();
    for (const [kid, spki] of keys) {
      const held = this.#checkers.get(kid);
      next.set(kid, held?.spki === spki ? held : { spki, keycloak: new Keycloak({}, {
        realm,
        'auth-server-url': serverUrl,
        resource: audience,
        'bearer-only': true,
        'verify-token-audience': true,
        'realm-public-key': spki,
        'ssl-required': 'none',
        'confidential-port': 0,
      } as never) });
    }
    const removed = [...this.#checkers].some(([kid, { spki }]) => next.get(kid)?.spki !== spki);
    this.#checkers = next;
    if (removed) this.#options.onKeyRemoved();
  }
}
