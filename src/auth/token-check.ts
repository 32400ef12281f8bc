// Checks the bearer token of every API call with keycloak-connect (RFC 6750) and records the caller.
import type { NextFunction, RequestHandler, Response } from 'express';
import Keycloak from 'keycloak-connect';
import { bearerToken, invalidToken } from './bearer-token.ts';
import { prefetchRealmKeys } from './realm-keys.ts';
import type { Principal } from './access-rules.ts';
import { VerifiedTokens } from './verified-tokens.ts';

export interface TokenCheckOptions {
  /** Base URL of the authorization server; the realm's issuer is `${serverUrl}/realms/${realm}`. */
  serverUrl: string;
  realm: string;
  audience: string;
}

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

export function tokenCheck({ serverUrl, realm, audience }: TokenCheckOptions): RequestHandler & { prefetchKeys(): Promise<void> } {
  // keycloak-connect checks signature (keys from the realm's certs endpoint), expiry, `typ`, `iss` and `aud`.
  const keycloak = new Keycloak({}, {
    realm,
    'auth-server-url': serverUrl,
    resource: audience,
    'bearer-only': true,
    'verify-token-audience': true,
    'ssl-required': 'none',
    'confidential-port': 0,
  } as never);

  const verified = new VerifiedTokens<AccessClaims>();
  /** keycloak-connect's check (signature, expiry, `typ`, `iss`, `aud`), done once per token while it is valid. */
  const verify = async (token: string): Promise<AccessClaims> => {
    // Built only when thrown: an error captures a stack, which costs more than the rest of a good token's check.
    // The grant as JSON text, the form createGrant documents for what a client hands over.
    const grant = await keycloak.grantManager.createGrant(JSON.stringify({ access_token: token })).catch(() => { throw invalidToken(realm); });
    // keycloak-connect's Token keeps the verified claims in `content`, which its typings leave out.
    const content = (grant.access_token as unknown as { content: AccessClaims }).content;
    verified.set(token, content, content.exp);
    return content;
  };

  const admit = (content: AccessClaims, res: Response, next: NextFunction): void => {
    // keycloak-connect lets a token without `exp` live forever and ignores `nbf`; RFC 9068 §2.2 requires
    // `exp` and RFC 7519 §4.1.5 forbids accepting a token before its `nbf`.
    const notYetValid = content.nbf !== undefined && !(typeof content.nbf === 'number' && content.nbf <= Date.now() / 1000);
    // Each claim read is checked by type here, where it is read: a subject that is no string would reach the
    // database as a query operator (`{"$ne": …}`) wherever it is compared.
    if (typeof content.exp !== 'number' || notYetValid || typeof content.sub !== 'string' || !content.sub) throw invalidToken(realm);
    const username = typeof content.preferred_username === 'string' ? content.preferred_username : content.sub;
    const principal: Principal = { subject: content.sub, username, roles: new Set(realmRoles(content.realm_access)), expiresAt: content.exp * 1000 };
    res.locals.principal = principal;
    next();
  };

  const check: RequestHandler = (req, res, next) => {
    const token = bearerToken(req, realm);
    // Most calls carry a token seen before: it is admitted without a promise in between.
    const known = verified.get(token);
    if (known) return admit(known, res, next);
    return verify(token).then((content) => admit(content, res, next));
  };
  return Object.assign(check, { prefetchKeys: () => prefetchRealmKeys(keycloak, `${serverUrl}/realms/${realm}`, audience) });
}
