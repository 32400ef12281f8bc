// Chooses the authorization server: the configured Keycloak, or the development provider on this service's origin.
import type { Express } from 'express';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config/config.ts';
import { createDevProvider } from '../dev-provider/index.ts';

const realmFile = fileURLToPath(new URL('../../keycloak/sighting-realm.json', import.meta.url));

/** Returns the server's base URL, the one keycloak-connect derives the realm's issuer and keys from. */
export async function mountAuthorizationServer(app: Express, config: Config): Promise<string> {
  if (config.KEYCLOAK_URL) return config.KEYCLOAK_URL.replace(/\/$/, '');
  const provider = await createDevProvider({
    issuer: `${config.publicUrl}/realms/${config.KEYCLOAK_REALM}`,
    realmFile,
    audience: config.TOKEN_AUDIENCE,
    env: { NODE_ENV: config.NODE_ENV, SIGHTING_SERVICE_SECRET: config.SIGHTING_SERVICE_SECRET },
  });
  app.use(provider.router);
  return config.publicUrl;
}
