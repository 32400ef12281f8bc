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
  /** The least time between two fetches one unknown key id causes: the realm did not list it, so it is refused. */
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
// Key ids the realm was asked for and did not list: anyone may send any number of them, so only the newest are kept.
const maxAbsentKids = 10_000;

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
  /** The fetch under way; `done` tells whether it succeeded. */
  #fetch: { started: number; done: Promise<boolean> } | undefined;
  /** The one fetch to start when the one under way ends, shared by every key id that arrived during it. */
  #next: Promise<boolean> | undefined;
  /** Key ids a fetch begun after their arrival did not list, until when they are refused without asking again. */
  readonly #absent = new Map<string, number>();
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

  /** Whether keys are held and the last fetch succeeded: what readiness reports for the identity provider. */
  get reachable(): boolean {
    return !this.#failing && this.#checkers.size > 0;
  }

  /**
   * The checker of the key `kid` names, by kind. A held key never waits. A key id the realm did not list a moment
   * ago is refused at once (each stranger is limited on its own, to one fetch every `minFetchIntervalMs`). Any other
   * id waits for a fetch begun after it arrived, never spaced behind other ids' fetches: a fetch under way when it
   * arrived may have missed a key the realm has just made, so the next one, shared by all that arrived meanwhile,
   * starts when it ends. 'unknown' only when the realm answered without the key; 'unavailable' when it did not answer.
   */
  async lookup(kid: string): Promise<KeyLookup> {
    const held = this.#checkers.get(kid);
    if (held) return held.keycloak;
    if (kid.length > maxKidLength || (this.#absent.get(kid) ?? -Infinity) > performance.now()) return 'unknown';
    const arrived = performance.now();
    if (this.#fetch && this.#fetch.started < arrived) {
      // A provider that did not answer that fetch is not asked again for this request: it is answered within one
      // fetch's timeout.
      if (!await this.#fetch.done) return this.#checkers.get(kid)?.keycloak ?? 'unavailable';
      const found = this.#checkers.get(kid);
      if (found) return found.keycloak;
    }
    const answered = await this.#fetchAfter(arrived);
    const found = this.#checkers.get(kid);
    if (found) return found.keycloak;
    if (!answered) return 'unavailable';
    if (this.#absent.size >= maxAbsentKids) this.#absent.delete(this.#absent.keys().next().value!);
    this.#absent.set(kid, performance.now() + this.#options.minFetchIntervalMs);
    return 'unknown';
  }

  /** A fetch begun at or after `arrived`: the one under way if so, else the one queued behind it, else a new one. */
  #fetchAfter(arrived: number): Promise<boolean> {
    if (!this.#fetch) return this.#refresh();
    if (this.#fetch.started >= arrived) return this.#fetch.done;
    this.#next ??= this.#fetch.done.then(() => {
      this.#next = undefined;
      return this.#refresh();
    });
    return this.#next;
  }

  /** One fetch at a time; it never rejects: a failed fetch keeps the keys held, logged once until one succeeds. */
  #refresh(): Promise<boolean> {
    if (this.#fetch) return this.#fetch.done;
    const started = performance.now();
    const done = this.#fetchKeys().then((keys) => {
      this.#replace(keys);
      if (this.#failing) this.#options.logger.info('the realm\'s signing keys can be fetched again');
      this.#failing = false;
      return true;
    }, (error: unknown) => {
      const message = 'the realm\'s signing keys could not be fetched; the keys held stay in use';
      if (!this.#failing) this.#options.logger.warn({ err: error }, message);
      this.#failing = true;
      return false;
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
    for (const kid of next.keys()) this.#absent.delete(kid);
    if (removed) this.#options.onKeyRemoved();
  }
}
