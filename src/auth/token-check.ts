// Checks the bearer token of every API call with keycloak-connect (RFC 6750) and records the caller.
import type { RequestHandler } from 'express';
import Keycloak from 'keycloak-connect';
import { Unauthorized } from '../errors/app-errors.ts';
import type { Principal } from './access-rules.ts';

export interface TokenCheckOptions {
  /** Base URL of the authorization server; the realm's issuer is `${serverUrl}/realms/${realm}`. */
  serverUrl: string;
  realm: string;
  audience: string;
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

  return async (req, res, next) => {
    const header = req.get('Authorization');
    // §3.1: without credentials the challenge carries no error code.
    if (!header) throw new Unauthorized('error.unauthorized', {}, { 'WWW-Authenticate': challenge });
    const token = bearer.exec(header)?.[1];
    const invalid = new Unauthorized('error.invalidToken', {}, { 'WWW-Authenticate': `${challenge}, error="invalid_token"` });
    if (!token) throw invalid;
    const grant = await keycloak.grantManager.createGrant({ access_token: token } as never).catch(() => { throw invalid; });
    const content = (grant.access_token as unknown as { content: { sub?: string; realm_access?: { roles?: string[] } } }).content;
    if (!content.sub) throw invalid;
    const principal: Principal = { subject: content.sub, roles: new Set(content.realm_access?.roles ?? []) };
    res.locals.principal = principal;
    next();
  };
}
