// Has keycloak-connect fetch the realm's signing keys at start, so the first tokens are checked against keys already held.
import type Keycloak from 'keycloak-connect';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface Jwk { kid?: string; kty?: string; use?: string }

/**
 * keycloak-connect fetches the realm's keys (its certs endpoint) when a token names a key it does not hold, keeps
 * them, and then refuses another fetch for `minTimeBetweenJwksRequests` (10 s): requests arriving together before
 * that first fetch ended were refused, valid tokens included. It has no public call to fetch them, so at start it is
 * handed, through its public `createGrant`, a token that passes every check before the signature's and names one of
 * the realm's signing keys under a signature that key never made. To check that signature keycloak-connect fetches
 * and keeps the keys; its refusal naming the signature says it held the key. test/auth/keys-at-start.test.ts fails
 * if it stops keeping them.
 */
export async function prefetchRealmKeys(keycloak: Keycloak.Keycloak, realmUrl: string, audience: string): Promise<void> {
  const response = await fetch(`${realmUrl}/protocol/openid-connect/certs`);
  if (!response.ok) throw new Error(`the realm's certs endpoint answered ${response.status}`);
  const { keys = [] } = await response.json() as { keys?: Jwk[] };
  // keycloak-connect checks RSA signatures only.
  const key = keys.find(({ kty, use }) => kty === 'RSA' && use !== 'enc');
  if (!key?.kid) throw new Error('the realm has no RSA signing key');

  const now = Math.floor(Date.now() / 1000);
  const header = base64url({ alg: 'RS256', typ: 'JWT', kid: key.kid });
  const claims = base64url({ typ: 'Bearer', iss: realmUrl, aud: audience, iat: now, exp: now + 60 });
  const refused = await keycloak.grantManager.createGrant(JSON.stringify({ access_token: `${header}.${claims}.AA` }))
    .then(() => undefined, (error: unknown) => error as Error);
  if (!refused?.message.endsWith('invalid token (public key signature)')) {
    throw new Error(`keycloak-connect did not check the signature with the realm's key: ${refused?.message ?? 'an unsigned token was accepted'}`);
  }
}
