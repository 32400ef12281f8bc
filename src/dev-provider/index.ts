// Zero-setup development authorization server: an embedded oidc-provider serving the Keycloak realm export.
import { generateKeyPair, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import express from 'express';
import type { Locale } from '../i18n/messages.ts';
import Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import { SUPPORTED_SCOPES } from './claims.ts';
import { realmClients, uriAllowed } from './clients.ts';
import { API_RESOURCE, providerConfiguration } from './configuration.ts';
import { keycloakResponses } from './keycloak-responses.ts';
import { LOGIN_PATH, loginRouter } from './login-page.ts';
import { LoginThrottle } from './login-throttle.ts';
import { PASSWORD_GRANT_PARAMETERS, passwordGrant } from './password-grant.ts';
import { displayNameIn, loadRealm } from './realm.ts';
import { userinfoRouter } from './userinfo.ts';
import { realmUsers, UserDirectory } from './users.ts';

export { passwordGrantCurl, tokenAssignment } from './token-curl.ts';

export interface DevProviderOptions {
  // `${publicBaseUrl}/realms/<realm>`; the router serves the realm under this URL's path.
  issuer: string;
  realmFile: string;
  // The resource server every token is for (its client id is the `aud`).
  audience?: string;
  // The settings it reads (NODE_ENV, the realm's `${…}` placeholders), from config/config.ts; never process.env itself.
  env?: NodeJS.ProcessEnv;
}

export interface DevProvider {
  // To mount at the root of the app: it routes the issuer's path itself.
  router: express.Router;
  issuer: string;
  realm: string;
}

export async function createDevProvider(options: DevProviderOptions): Promise<DevProvider> {
  const env = options.env ?? {};
  if (env.NODE_ENV === 'production') {
    throw new Error(
      'The embedded authorization server is for development only and refuses to run with NODE_ENV=production; ' +
      'configure Keycloak instead.');
  }
  // A fresh RSA key per start: tokens die with the process, which is fine for development. Made on another thread
  // while the rest of the start goes on.
  const keyPair = promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const issuer = options.issuer.replace(/\/+$/, '');
  const issuerPath = new URL(issuer).pathname;
  const realm = await loadRealm(options.realmFile, env);
  const users = new UserDirectory(realmUsers(realm));
  const clients = realmClients(realm);
  // The realm's brute-force detection, for the password grant and the login form alike.
  const throttle = new LoginThrottle(realm);
  const api = {
    scope: SUPPORTED_SCOPES.join(' '),
    audience: options.audience ?? 'sighting-api',
    accessTokenTTL: realm.accessTokenLifespan ?? 300,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: 'RS256' } },
  } as const;

  const { privateKey, publicKey } = await keyPair;
  const provider = new Provider(issuer, providerConfiguration({
    signingKey: { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' },
    clients,
    users,
    api,
    refreshTokenLifespan: realm.ssoSessionIdleTimeout ?? 1800,
    rotateRefreshTokens: realm.revokeRefreshToken === true,
    loginPath: `${issuerPath}${LOGIN_PATH}`,
  }));
  // Honour X-Forwarded-Proto/Host so endpoint URLs are right behind a TLS-terminating proxy.
  provider.proxy = true;
  // Keycloak realms register redirect URI patterns; oidc-provider would compare them exactly. A patch of the library's
  // class (docs/architecture.md, "Workarounds of libraries"; guarded by test/architecture/library-patches.test.ts).
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(this: Client, value: string) {
    return uriAllowed(value, clients.get(this.clientId)?.redirectUris);
  };
  const passwordHandler = passwordGrant(provider, users, throttle, API_RESOURCE, api);
  provider.registerGrantType('password', passwordHandler, PASSWORD_GRANT_PARAMETERS);
  // Pages show the realm's display name, as Keycloak's do.
  const displayName = (locale: Locale) => displayNameIn(realm, locale);
  provider.use(keycloakResponses(displayName));

  const router = express.Router();
  router.use(loginRouter(provider, users, throttle, displayName));
  router.use(userinfoRouter({ issuer, publicKey, users }));
  // Express strips the mount path from req.url and keeps it in req.originalUrl; oidc-provider derives
  // its endpoint URLs from exactly that difference, so it can be handed the raw request as is.
  const callback = provider.callback();
  router.use((req, res) => void callback(req, res));
  return { router: express.Router().use(issuerPath, router), issuer, realm: realm.realm };
}
