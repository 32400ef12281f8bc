// Has keycloak-connect fetch the realm's signing keys at start, so the first tokens are checked against keys already held.
import type Keycloak from 'keycloak-connect';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * keycloak-connect fetches the realm's keys (its certs endpoint) when a token names a key it does not hold, and then
 * refuses another fetch for `minTimeBetweenJwksRequests` (10 s): requests arriving together before that first fetch
 * ended were refused, valid tokens included. So at start it is handed, through its public `createGrant`, a token
 * that passes every check before the signature's and names a key no realm has: it fetches and keeps the realm's
 * keys, and refuses the token. test/auth/keys-at-start.test.ts fails if it stops keeping them this way.
 */
export async function prefetchRealmKeys(keycloak: Keycloak.Keycloak, realmUrl: string, audience: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url({ alg: 'RS256', typ: 'JWT', kid: 'no-such-key: fetch the realm keys' });
  const claims = base64url({ typ: 'Bearer', iss: realmUrl, aud: audience, iat: now, exp: now + 60 });
  const refused = await keycloak.grantManager.createGrant(JSON.stringify({ access_token: `${header}.${claims}.AA` }))
    .then(() => undefined, (error: unknown) => error as Error);
  // The one refusal that says the keys were fetched and this key is not among them; any other (the certs endpoint
  // unreachable) is the caller's to log.
  if (!refused?.message.includes('Expected "jwk" to be an Object')) {
    throw new Error(`the realm's keys were not fetched: ${refused ? refused.message : 'a token naming no key was accepted'}`);
  }
}
