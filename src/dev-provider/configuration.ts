// Builds the oidc-provider configuration that makes it behave like the Keycloak realm it stands in for.
import { randomBytes } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import type { GrantInstance, KoaContextWithOIDC, OidcClient, ResourceServerInfo } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { findAccount, keycloakAccessToken, SUPPORTED_SCOPES } from './claims.ts';
import type { ClientMetadata, ClientPolicy } from './clients.ts';
import { uriAllowed } from './clients.ts';
import { createMemoryAdapter } from './memory-adapter.ts';
import { LOGIN_PATH } from './login-page.ts';
import { USERINFO_PATH } from './userinfo.ts';
import type { UserDirectory } from './users.ts';

// Keycloak's endpoint layout under the realm URL.
export const ROUTES = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  jwks: '/protocol/openid-connect/certs',
  userinfo: USERINFO_PATH,
  end_session: '/protocol/openid-connect/logout',
  revocation: '/protocol/openid-connect/revoke',
  introspection: '/protocol/openid-connect/token/introspect',
  pushed_authorization_request: '/protocol/openid-connect/ext/par/request',
};

// RFC 8707 resource indicators must be absolute URIs, so the API's client id is wrapped in a URN;
// the token audience stays the plain client id, which is what keycloak-connect compares.
export const API_RESOURCE = 'urn:sighting:resource:sighting-api';

export interface ConfigurationInput {
  signingKey: JsonWebKey;
  clients: ClientMetadata[];
  policies: Map<string, ClientPolicy>;
  users: UserDirectory;
  audience: string;
  accessTokenLifespan: number;
  refreshTokenLifespan: number;
}

export function resourceServerInfo(input: ConfigurationInput): ResourceServerInfo {
  return {
    scope: SUPPORTED_SCOPES.join(' '),
    audience: input.audience,
    accessTokenTTL: input.accessTokenLifespan,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: 'RS256' } },
  };
}

// The interaction page is served by our express router under the same mount point as the provider.
function mountPathOf(ctx: KoaContextWithOIDC & { req: { originalUrl?: string; url?: string } }): string {
  // Paths only: a query string may have been rewritten on the way in (see keycloak-responses.ts).
  const original = (ctx.req.originalUrl ?? '').split('?')[0] ?? '';
  const path = (ctx.req.url ?? '').split('?')[0] ?? '';
  const index = path ? original.lastIndexOf(path) : -1;
  return index > 0 && index + path.length === original.length ? original.slice(0, index) : '';
}

// First-party clients only: consent is granted implicitly for whatever the request asks for.
async function autoConsent(ctx: KoaContextWithOIDC): Promise<GrantInstance | undefined> {
  const { oidc } = ctx;
  const client = oidc.client;
  const accountId = oidc.session?.accountId;
  if (!client || !accountId) return undefined;
  const existingId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(client.clientId);
  const grant = (existingId ? await oidc.provider.Grant.find(existingId) : undefined)
    ?? new oidc.provider.Grant({ accountId, clientId: client.clientId });
  const scope = [...oidc.requestParamScopes].join(' ');
  if (oidc.requestParamOIDCScopes.size > 0) grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
  if (oidc.requestParamClaims.size > 0) grant.addOIDCClaims([...oidc.requestParamClaims]);
  for (const indicator of Object.keys(oidc.resourceServers)) grant.addResourceScope(indicator, scope);
  await grant.save();
  return grant;
}

export function providerConfiguration(input: ConfigurationInput): object {
  const policyOf = (client: OidcClient) => input.policies.get(client.clientId);
  return {
    adapter: createMemoryAdapter(),
    clients: input.clients,
    jwks: { keys: [input.signingKey] },
    findAccount: findAccount(input.users),
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
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== API_RESOURCE) throw new errors.InvalidTarget();
          return resourceServerInfo(input);
        },
      },
    },
    formats: { customizers: { jwt: keycloakAccessToken(input.users) } },
    interactions: { url: (ctx: KoaContextWithOIDC & { req: { originalUrl?: string; url?: string } }, interaction: { uid: string }) => `${mountPathOf(ctx)}${LOGIN_PATH}/${interaction.uid}` },
    loadExistingGrant: autoConsent,
    // Keycloak hands out refresh tokens without offline_access; so do we, to every client allowed the grant.
    issueRefreshToken: async (_ctx: unknown, client: OidcClient) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    pkce: { required: (_ctx: unknown, client: OidcClient) => policyOf(client)?.pkceRequired ?? true },
    clientBasedCORS: (_ctx: unknown, origin: string, client: OidcClient) => uriAllowed(origin, policyOf(client)?.webOrigins ?? []),
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: {
      AccessToken: input.accessTokenLifespan,
      ClientCredentials: input.accessTokenLifespan,
      IdToken: input.accessTokenLifespan,
      AuthorizationCode: 60,
      RefreshToken: input.refreshTokenLifespan,
      Interaction: 30 * 60,
      Session: input.refreshTokenLifespan,
      Grant: input.refreshTokenLifespan,
    },
    renderError: async (ctx: KoaContextWithOIDC, out: Record<string, string>) => {
      ctx.type = 'html';
      const text = Object.entries(out).map(([key, value]) => `${key}: ${String(value).replace(/[&<>"']/g, '')}`).join('\n');
      ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><h1>Sign-in error</h1><pre>${text}</pre></body></html>`;
    },
  };
}

// oidc-provider wants exact redirect URIs; Keycloak realms use wildcards, so check against the realm's patterns.
export function applyRedirectPolicies(clientPrototype: OidcClient, policies: Map<string, ClientPolicy>): void {
  clientPrototype.redirectUriAllowed = function redirectUriAllowed(this: OidcClient, value: string) {
    return uriAllowed(value, policies.get(this.clientId)?.redirectUris ?? []);
  };
  clientPrototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(this: OidcClient, value: string) {
    return uriAllowed(value, policies.get(this.clientId)?.redirectUris ?? []);
  };
}
