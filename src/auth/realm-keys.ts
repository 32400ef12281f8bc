// Fetches the realm's signing keys once at start, so the first tokens are checked against keys already held.
import type Keycloak from 'keycloak-connect';

interface Rotation {
  retrieveJWKs(): Promise<{ keys: unknown[] }>;
  jwks: unknown[];
  lastTimeRequesTime: number;
}

/**
 * keycloak-connect fetches keys on the first token and then refuses to fetch again for 10 s
 * (`minTimeBetweenJwksRequests`): requests arriving together before the first fetch ended were refused, valid
 * tokens included. Held before the service says it is ready, that race never happens.
 */
export async function prefetchRealmKeys(keycloak: Keycloak.Keycloak): Promise<void> {
  const rotation = (keycloak.grantManager as unknown as { rotation: Rotation }).rotation;
  const { keys } = await rotation.retrieveJWKs();
  rotation.jwks = keys;
  rotation.lastTimeRequesTime = Date.now() / 1000;
}
