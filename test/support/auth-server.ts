// Hands tests an OpenID provider for realm "sighting": the real Keycloak when KEYCLOAK_URL is set, else the embedded
// one.

import { sharedService } from './service.ts';

export type AuthServerKind = 'keycloak' | 'embedded';

export interface AuthServer {
  /** Issuer URL; `${issuer}/.well-known/openid-configuration` is the discovery document. */
  issuer: string;
  kind: AuthServerKind;
  close(): Promise<void>;
}

export const REALM = 'sighting';

export async function authServer(): Promise<AuthServer> {
  const keycloakUrl = process.env['KEYCLOAK_URL'];
  if (keycloakUrl) {
    // Keycloak is started and stopped by scripts/keycloak/*, outside the test run, so there is nothing to close.
    const issuer = `${keycloakUrl.replace(/\/+$/, '')}/realms/${REALM}`;
    return { issuer, kind: 'keycloak', close: async () => {} };
  }
  // The embedded provider is served by the service itself, on its own origin, as `npm start` runs it.
  const service = await sharedService();
  return { issuer: service.realm, kind: 'embedded', close: async () => {} };
}
