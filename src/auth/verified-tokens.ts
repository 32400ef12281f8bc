// A bounded cache of access tokens whose signature was already verified, kept until each one's `exp`.
// Verifying an RS256 signature (and keycloak-connect's JWK-to-PEM import) costs far more than the rest of a
// read; a client sends the same token on every call until it expires, so the check is done once per token. The
// service keys it by the whole Authorization header, so that a known header's token is not read out of it again.

const maxEntries = 10_000;

export class VerifiedTokens<Claims> {
  // A Map iterates in insertion order: the first key is the oldest entry, evicted when the cache is full.
  readonly #entries = new Map<string, { claims: Claims; expiresAt: number }>();

  /** The claims of a token verified before and not yet expired (RFC 7519 §4.1.4); undefined otherwise. */
  get(key: string, now = Date.now()): Claims | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.claims;
    this.#entries.delete(key);
    return undefined;
  }

  /** Forgets every token: the realm no longer lists a key some of them were verified with. */
  clear(): void {
    this.#entries.clear();
  }

  /** Remembers a verified token until `exp` (seconds since the epoch); a token without a numeric `exp` is not kept. */
  set(key: string, claims: Claims, exp: unknown): void {
    if (typeof exp !== 'number') return;
    if (this.#entries.size >= maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { claims, expiresAt: exp * 1000 });
  }
}
