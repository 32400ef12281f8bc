// Reads the bearer token of a request strictly: one Authorization header, `Bearer`, a compact JWS (RFC 6750, RFC 7515).
import type { IncomingMessage } from 'node:http';
import { BadRequest, Unauthorized } from '../errors/app-errors.ts';

// RFC 6750 §2.1 `Bearer 1*SP b64token`, narrowed to the compact JWS serialization (RFC 7515 §7.1): exactly three
// base64url segments without padding (§2). A fourth segment, a trailing dot or standard base64 (`+/=`) is no token.
const bearer = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i;

const challengeOf = (realm: string) => `Bearer realm="${realm}"`;

/**
 * The request's one Authorization header with the Bearer scheme, or the RFC 6750 §3.1 error for the request: none
 * (401), ambiguous (400). Its token is read by `bearerToken`, only for a header not seen before with a good token.
 */
export function bearerHeader(req: IncomingMessage, realm: string): string {
  // Node keeps only the first of repeated Authorization headers, so they are counted in the raw headers (a name of
  // another length is not lower-cased to be compared).
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') count += 1;
  }
  // §2: a client MUST NOT use more than one method to send the token; more than one header is invalid_request.
  if (count > 1) throw new BadRequest('error.authorization.repeated', {},
    { 'WWW-Authenticate': `${challengeOf(realm)}, error="invalid_request"` }, 'Authorization');
  const header = req.headers.authorization;
  // §3.1: without credentials, or with another scheme (e.g. Basic), the challenge carries no error code.
  if (!header || !/^Bearer(\s|$)/i.test(header)) throw new Unauthorized('error.unauthorized', {},
    { 'WWW-Authenticate': challengeOf(realm) });
  return header;
}

/** The token of a Bearer header, or the RFC 6750 §3.1 invalid_token error (401) when it is no compact JWS. */
export function bearerToken(header: string, realm: string): string {
  const token = bearer.exec(header)?.[1];
  if (!token) throw invalidToken(realm);
  return token;
}

export function invalidToken(realm: string): Unauthorized {
  return new Unauthorized('error.invalidToken', {},
    { 'WWW-Authenticate': `${challengeOf(realm)}, error="invalid_token"` });
}
