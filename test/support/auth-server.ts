// Hands tests an OpenID provider for realm "sighting": the real Keycloak when KEYCLOAK_URL is set, else the embedded one.

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
  throw new Error(
    'embedded provider not wired yet: set KEYCLOAK_URL (e.g. http://127.0.0.1:8180 after scripts/keycloak/start.sh) to test against Keycloak',
  );
}
