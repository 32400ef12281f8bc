// Zero-setup authorization server: an embedded oidc-provider serving the Keycloak realm export, mounted in express.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import express from 'express';
import Provider from 'oidc-provider';
import { realmClients } from './clients.ts';
import { API_RESOURCE, applyRedirectPolicies, providerConfiguration, resourceServerInfo } from './configuration.ts';
import type { ConfigurationInput } from './configuration.ts';
import { keycloakResponses } from './keycloak-responses.ts';
import { loginRouter } from './login-page.ts';
import { PASSWORD_GRANT_PARAMETERS, passwordGrant } from './password-grant.ts';
import { loadRealm } from './realm.ts';
import { userinfoRouter } from './userinfo.ts';
import { realmUsers, UserDirectory } from './users.ts';

export { passwordGrantCurl, tokenAssignment } from './token-curl.ts';
export type { TokenCurlOptions } from './token-curl.ts';

export interface EmbeddedProviderOptions {
  // `${publicBaseUrl}/realms/<realm>`; the router must be mounted at this URL's path.
  issuer: string;
  realmFile: string;
  // The resource server every token is for (its client id is the `aud`).
  audience?: string;
  // The settings it reads (NODE_ENV, the realm's `${…}` placeholders), from src/config.ts; never process.env itself.
  env?: NodeJS.ProcessEnv;
}

export interface EmbeddedProvider {
  router: express.Router;
  issuer: string;
  realm: string;
}

export async function createEmbeddedProvider(options: EmbeddedProviderOptions): Promise<EmbeddedProvider> {
  const env = options.env ?? {};
  if (env.NODE_ENV === 'production') {
    throw new Error('The embedded authorization server is for development only and refuses to run with NODE_ENV=production; configure Keycloak instead.');
  }
  const issuer = options.issuer.replace(/\/+$/, '');
  const realm = await loadRealm(options.realmFile, env);
  const users = new UserDirectory(realmUsers(realm));
  const { metadata, policies } = realmClients(realm);

  // A fresh RSA key per start: tokens die with the process, which is fine for development.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input: ConfigurationInput = {
    signingKey: { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' },
    clients: metadata,
    policies,
    users,
    audience: options.audience ?? 'sighting-api',
    accessTokenLifespan: realm.accessTokenLifespan ?? 300,
    refreshTokenLifespan: realm.ssoSessionIdleTimeout ?? 1800,
  };

  const provider = new Provider(issuer, providerConfiguration(input));
  // Honour X-Forwarded-Proto/Host so endpoint URLs are right behind a TLS-terminating proxy.
  provider.proxy = true;
  applyRedirectPolicies(provider.Client.prototype, policies);
  provider.registerGrantType('password', passwordGrant({
    provider, users, resource: API_RESOURCE, resourceServer: resourceServerInfo(input),
  }), PASSWORD_GRANT_PARAMETERS);

  // Pages show the realm's display name, as Keycloak's do.
  provider.use(keycloakResponses(realm.displayName ?? realm.realm));

  const router = express.Router();
  router.use(loginRouter(provider, users, realm.displayName ?? realm.realm));
  router.use(userinfoRouter({ issuer, publicKey, users }));
  const callback = provider.callback();
  // Express has stripped the mount path from req.url and kept it in req.originalUrl; oidc-provider derives
  // its endpoint URLs from exactly that difference, so it can be handed the raw request as is.
  const issuerPath = new URL(issuer).pathname;
  let mountChecked = false;
  router.use((req, res) => {
    if (!mountChecked && req.baseUrl !== issuerPath) {
      req.log.warn(`embedded provider mounted at "${req.baseUrl}" but its issuer path is "${issuerPath}"; tokens and endpoints will disagree`);
    }
    mountChecked = true;
    void callback(req, res);
  });
  return { router, issuer, realm: realm.realm };
}
