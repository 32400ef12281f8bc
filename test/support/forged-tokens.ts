// Makes tokens the API must refuse (foreign key, `alg: none`, wrong claims) and a test-held realm whose key signs any
// claims.
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload, type CryptoKey } from 'jose';
import { listenOnLoopback } from './loopback-server.ts';

export const AUDIENCE = 'sighting-api';
export const REALM_NAME = 'sighting';

/** The claims of a Keycloak access token for the API; `overrides` replace claims, `undefined` drops one. */
export function accessClaims(issuer: string, overrides: Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    exp: now + 300,
    iat: now,
    jti: randomUUID(),
    iss: issuer,
    aud: AUDIENCE,
    sub: randomUUID(),
    typ: 'Bearer',
    azp: 'sighting-cli',
    realm_access: { roles: ['reader', 'writer'] },
    scope: 'profile email',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
}

async function rsaKeyPair(): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
  return generateKeyPair('RS256', { extractable: true });
}

function sign(claims: JWTPayload, privateKey: CryptoKey, kid: string | undefined): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(kid && { kid }) }).sign(privateKey);
}

/** A compact JWS over exactly this header and these claims, RS256 with WebCrypto (RFC 7515 §5.1). */
async function signAnyHeader(header: object, claims: JWTPayload, privateKey: CryptoKey): Promise<string> {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(header)}.${part(claims)}`;
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', privateKey, Buffer.from(input));
  return `${input}.${Buffer.from(signature).toString('base64url')}`;
}

/** The `kid` of the key the realm signs access tokens with, from its JWKS (Keycloak also lists an encryption key). */
export async function realmSigningKid(issuer: string): Promise<string> {
  const response = await fetch(`${issuer}/protocol/openid-connect/certs`);
  const { keys } = await response.json() as { keys: { kid: string; use?: string; alg?: string }[] };
  const key = keys.find((k) => k.use !== 'enc' && (k.alg ?? 'RS256') === 'RS256');
  if (!key) throw new Error(`no RS256 signing key at ${issuer}`);
  return key.kid;
}

/** Signed with a fresh RSA key the realm never saw, under the given `kid` (e.g. the realm's own) or none. */
export async function signedWithForeignKey(claims: JWTPayload, kid?: string): Promise<string> {
  return sign(claims, (await rsaKeyPair()).privateKey, kid);
}

/** An unsecured JWT (RFC 7519 §6): `alg: none` and an empty signature. */
export function unsignedToken(claims: JWTPayload, kid?: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT', ...(kid && { kid }) })}.${part(claims)}.`;
}

/**
 * A stand-in authorization server whose private key the test holds: it serves only the realm's JWKS
 * (all keycloak-connect fetches). A service started with `KEYCLOAK_URL: realm.url` trusts it, so a token
 * signed here with one claim changed isolates that claim's check from the signature check.
 */
export interface TestRealm {
  /** Base URL for the service's KEYCLOAK_URL. */
  url: string;
  /** `${url}/realms/sighting`, the issuer the service expects. */
  issuer: string;
  /** Signs `accessClaims(issuer, overrides)` with the realm's key and kid. */
  token(overrides?: Record<string, unknown>): Promise<string>;
  /**
   * Signs `accessClaims(issuer)` with the realm's key under its own header plus `header`, whatever that holds (jose
   * refuses to sign a `crit` it does not know, which is what the service must refuse).
   */
  tokenWithHeader(header: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function startTestRealm(): Promise<TestRealm> {
  const { privateKey, publicKey } = await rsaKeyPair();
  const kid = randomUUID();
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' }] });
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === `/realms/${REALM_NAME}/protocol/openid-connect/certs`) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(jwks);
    } else {
      res.writeHead(404).end();
    }
  });
  const url = await listenOnLoopback(server);
  const issuer = `${url}/realms/${REALM_NAME}`;
  return {
    url,
    issuer,
    token: (overrides = {}) => sign(accessClaims(issuer, overrides), privateKey, kid),
    tokenWithHeader: (header) => signAnyHeader({ alg: 'RS256', typ: 'JWT', kid, ...header }, accessClaims(issuer),
      privateKey),
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
