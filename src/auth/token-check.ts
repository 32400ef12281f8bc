// Checks the bearer token of every API call with keycloak-connect (RFC 6750) and records the caller.
import type { RequestHandler } from 'express';
import Keycloak from 'keycloak-connect';
import { Unauthorized } from '../errors/app-errors.ts';
import type { Principal } from './access-rules.ts';
import { VerifiedTokens } from './verified-tokens.ts';

export interface TokenCheckOptions {
  /** Base URL of the authorization server; the realm's issuer is `${serverUrl}/realms/${realm}`. */
  serverUrl: string;
  realm: string;
  audience: string;
}

interface AccessClaims {
  sub?: string;
  exp?: unknown;
  nbf?: unknown;
  realm_access?: { roles?: string[] };
}

// RFC 6750 §2.1: `Bearer` followed by a b64token.
const bearer = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export function tokenCheck({ serverUrl, realm, audience }: TokenCheckOptions): RequestHandler {
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
  const challenge = `Bearer realm="${realm}"`;
  const verified = new VerifiedTokens<AccessClaims>();
  /** keycloak-connect's check (signature, expiry, `typ`, `iss`, `aud`), done once per token while it is valid. */
  const verify = async (token: string): Promise<AccessClaims> => {
    const cached = verified.get(token);
    if (cached) return cached;
    const grant = await keycloak.grantManager.createGrant({ access_token: token } as never);
    const content = (grant.access_token as unknown as { content: AccessClaims }).content;
    verified.set(token, content, content.exp);
    return content;
  };

  return async (req, res, next) => {
    const header = req.get('Authorization');
    // §3.1: without credentials, or with another scheme (e.g. Basic), the challenge carries no error code.
    if (!header || !/^Bearer(\s|$)/i.test(header)) throw new Unauthorized('error.unauthorized', {}, { 'WWW-Authenticate': challenge });
    const token = bearer.exec(header)?.[1];
    // Built only when thrown: an error captures a stack, which costs more than the rest of a good token's check.
    const invalid = () => new Unauthorized('error.invalidToken', {}, { 'WWW-Authenticate': `${challenge}, error="invalid_token"` });
    if (!token) throw invalid();
    const content = await verify(token).catch(() => { throw invalid(); });
    // keycloak-connect lets a token without `exp` live forever and ignores `nbf`; RFC 9068 §2.2 requires
    // `exp` and RFC 7519 §4.1.5 forbids accepting a token before its `nbf`.
    const notYetValid = content.nbf !== undefined && !(typeof content.nbf === 'number' && content.nbf <= Date.now() / 1000);
    if (typeof content.exp !== 'number' || notYetValid || !content.sub) throw invalid();
    const principal: Principal = { subject: content.sub, roles: new Set(content.realm_access?.roles ?? []) };
    res.locals.principal = principal;
    next();
  };
}
