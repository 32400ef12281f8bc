// Builds the oidc-provider configuration that makes it stand in for the Keycloak realm: clients, users, routes,
// lifetimes.
import { randomBytes } from 'node:crypto';
import type { Configuration, Grant, JWK, KoaContextWithOIDC, ResourceServer } from 'oidc-provider';
import { errors } from 'oidc-provider';
// oidc-provider's own in-memory store; handed over explicitly, it starts without the library's console warning.
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { findAccount, keycloakAccessToken, SUPPORTED_SCOPES } from './claims.ts';
import type { RealmClients } from './clients.ts';
import { uriAllowed } from './clients.ts';
import type { UserDirectory } from './users.ts';

// Keycloak's endpoint layout under the realm URL.
export const ROUTES = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  jwks: '/protocol/openid-connect/certs',
  userinfo: '/protocol/openid-connect/userinfo',
  end_session: '/protocol/openid-connect/logout',
  revocation: '/protocol/openid-connect/revoke',
  introspection: '/protocol/openid-connect/token/introspect',
  pushed_authorization_request: '/protocol/openid-connect/ext/par/request',
};

// RFC 8707 resource indicators must be absolute URIs, so the API's client id is wrapped in a URN;
// the token audience stays the plain client id, which is what keycloak-connect compares.
export const API_RESOURCE = 'urn:sighting:resource:sighting-api';

export interface ProviderSettings {
  signingKey: JWK;
  clients: RealmClients;
  users: UserDirectory;
  // The resource server every token is for.
  api: ResourceServer & { accessTokenTTL: number };
  refreshTokenLifespan: number;
  /** Each refresh issues a new refresh token and the old one is spent (the realm's `revokeRefreshToken`). */
  rotateRefreshTokens: boolean;
  // Where the login form posts, under the issuer's path.
  loginPath: string;
}

// First-party clients only: consent is granted implicitly for whatever the request asks for.
async function autoConsent(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { client, session, provider } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const existingId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const grant = (existingId ? await provider.Grant.find(existingId) : undefined)
    ?? new provider.Grant({ accountId: session.accountId, clientId: client.clientId });
  // Only what is asked for: adding an empty set would leave a stray separator in an existing grant's scope.
  if (ctx.oidc.requestParamOIDCScopes.size > 0) grant.addOIDCScope(ctx.oidc.requestParamOIDCScopes);
  if (ctx.oidc.requestParamClaims.size > 0) grant.addOIDCClaims(ctx.oidc.requestParamClaims);
  for (const indicator of Object.keys(ctx.oidc.resourceServers ?? {})) grant.addResourceScope(indicator,
    ctx.oidc.requestParamScopes);
  await grant.save();
  return grant;
}

export function providerConfiguration(settings: ProviderSettings): Configuration {
  const { api, clients, users, refreshTokenLifespan } = settings;
  return {
    adapter: createMemoryAdapter(),
    clients: [...clients.values()].map((client) => client.metadata),
    jwks: { keys: [settings.signingKey] },
    findAccount: findAccount(users),
    scopes: SUPPORTED_SCOPES,
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'given_name', 'family_name'],
      email: ['email', 'email_verified'],
    },
    responseTypes: ['code'],
    // RFC 6749 §2.3.1 secrets (header or body) for confidential clients, nothing for public ones.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    routes: ROUTES,
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Every token is for the API unless a client asks otherwise, and refreshes keep that audience.
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== API_RESOURCE) throw new errors.InvalidTarget();
          return api;
        },
      },
    },
    formats: { customizers: { jwt: keycloakAccessToken(users) } },
    interactions: { url: (_ctx, interaction) => `${settings.loginPath}/${interaction.uid}` },
    loadExistingGrant: autoConsent,
    // Keycloak hands out refresh tokens without offline_access; so do we, to every client allowed the grant.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // RFC 9700 §4.14.2: a rotated refresh token redeemed again revokes its grant (oidc-provider detects the reuse).
    rotateRefreshToken: () => settings.rotateRefreshTokens,
    expiresWithSession: async () => false,
    clientBasedCORS: (_ctx, origin, client) => uriAllowed(origin, clients.get(client.clientId)?.webOrigins),
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: {
      AccessToken: api.accessTokenTTL,
      ClientCredentials: api.accessTokenTTL,
      IdToken: api.accessTokenTTL,
      RefreshToken: refreshTokenLifespan,
      Interaction: 30 * 60,
      Session: refreshTokenLifespan,
      Grant: refreshTokenLifespan,
    },
    // The library's default page loads a web font and logs a notice; this one is plain.
    renderError: (ctx, out) => {
      ctx.type = 'html';
      const text = Object.entries(out).map(([key,
        value]) => `${key}: ${String(value).replace(/[&<>"']/g, '')}`).join('\n');
      ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head>` +
        `<body><h1>Sign-in error</h1><pre>${text}</pre></body></html>`;
    },
  };
}
