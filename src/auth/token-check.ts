// Checks the bearer token of every API call with keycloak-connect (RFC 6750) and records the caller.
import type { NextFunction, RequestHandler, Response } from 'express';
import { ServiceUnavailable } from '../errors/app-errors.ts';
import { bearerHeader, bearerToken, invalidToken } from './bearer-token.ts';
import { isBoundedClaim } from './claim-bounds.ts';
import { joseHeaderOf } from './jose-header.ts';
import { RealmKeys, type RealmKeysOptions } from './realm-keys.ts';
import type { Principal } from './access-rules.ts';
import { VerifiedTokens } from './verified-tokens.ts';

/** The realm's address and its keys' schedule and bounds (`REALM_KEYS_*`, src/config/config.ts). */
export type TokenCheckOptions = Omit<RealmKeysOptions, 'onKeyRemoved'>;

/** As the token says, unchecked: a signed token may still hold any JSON where a claim is read (checked in `admit`). */
interface AccessClaims {
  sub?: unknown;
  preferred_username?: unknown;
  exp?: unknown;
  nbf?: unknown;
  realm_access?: unknown;
}

/** `realm_access.roles` (Keycloak's realm roles): the strings it holds, or none when it is not an array. */
function realmRoles(realmAccess: unknown): string[] {
  const roles = (realmAccess as { roles?: unknown } | null | undefined)?.roles;
  return Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [];
}

export type TokenCheck = RequestHandler & { startKeys(): Promise<void>; stopKeys(): void; keysReachable(): boolean };

export function tokenCheck(options: TokenCheckOptions): TokenCheck {
  const { realm } = options;
  const verified = new VerifiedTokens<AccessClaims>();
  /**
   * The caller a verified token's claims admitted, made once per token: nothing in it changes while the token is
   * cached, and a `nbf` that was passed stays passed. Held as long as the claims are (the cache keeps those).
   */
  const admitted = new WeakMap<AccessClaims, Principal>();
  // A token verified with a key the realm no longer lists must not stay admitted from the cache.
  const keys = new RealmKeys({ ...options, onKeyRemoved: () => verified.clear() });

  /** keycloak-connect's check (signature, expiry, `typ`, `iss`, `aud`), done once per token while it is valid. */
  const verify = async (header: string, token: string): Promise<AccessClaims> => {
    const jose = joseHeaderOf(token);
    // Refused before any key is looked up: keycloak-connect would verify the signature and ignore `crit`.
    if (jose?.critical) throw invalidToken(realm);
    const kid = jose?.kid;
    const checker = kid === undefined ? 'unknown' : await keys.lookup(kid);
    if (checker === 'unavailable') throw new ServiceUnavailable('error.keysUnavailable', {}, { 'Retry-After': '5' });
    // Built only when thrown: an error captures a stack, which costs more than the rest of a good token's check.
    if (checker === 'unknown') throw invalidToken(realm);
    // The grant as JSON text, the form createGrant documents for what a client hands over.
    const grant = await checker.grantManager.createGrant(JSON.stringify({ access_token: token }))
      .catch(() => { throw invalidToken(realm); });
    // keycloak-connect's Token keeps the verified claims in `content`, which its typings leave out
    // (docs/architecture.md, "Workarounds of libraries"; guarded by test/architecture/library-patches.test.ts).
    const content = (grant.access_token as unknown as { content: AccessClaims }).content;
    verified.set(header, content, content.exp);
    return content;
  };

  const admit = (content: AccessClaims, res: Response, next: NextFunction): void => {
    const known = admitted.get(content);
    if (known) {
      res.locals.principal = known;
      return next();
    }
    // keycloak-connect lets a token without `exp` live forever and ignores `nbf`; RFC 9068 §2.2 requires
    // `exp` and RFC 7519 §4.1.5 forbids accepting a token before its `nbf`.
    const notYetValid = content.nbf !== undefined
      && !(typeof content.nbf === 'number' && content.nbf <= Date.now() / 1000);
    // Each claim read is checked where it is read: a subject that is no string would reach the database as a query
    // operator (`{"$ne": …}`); one too long for its column, or holding a NUL, would be a database error.
    if (typeof content.exp !== 'number' || notYetValid || !isBoundedClaim(content.sub)) throw invalidToken(realm);
    const username = typeof content.preferred_username === 'string' ? content.preferred_username : content.sub;
    if (!isBoundedClaim(username)) throw invalidToken(realm);
    const principal: Principal = { subject: content.sub, username, roles: new Set(realmRoles(content.realm_access)),
      expiresAt: content.exp * 1000 };
    admitted.set(content, principal);
    res.locals.principal = principal;
    next();
  };

  const check: RequestHandler = (req, res, next) => {
    const header = bearerHeader(req, realm);
    // Most calls carry a header seen before with a good token: it is admitted without reading the token out of it
    // again, and without a promise in between.
    const known = verified.get(header);
    if (known) return admit(known, res, next);
    return verify(header, bearerToken(header, realm)).then((content) => admit(content, res, next));
  };
  return Object.assign(check, { startKeys: () => keys.start(), stopKeys: () => keys.stop(),
    keysReachable: () => keys.reachable });
}
