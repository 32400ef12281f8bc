// Shapes accounts and access-token payloads the way Keycloak does, so keycloak-connect and the API accept them.
import type { Account, KoaContextWithOIDC, StructuredJwt, Token } from 'oidc-provider';
import type { User, UserDirectory } from './users.ts';

// Keycloak's realm default client scopes; they apply to every token whether requested or not.
const DEFAULT_SCOPES = ['profile', 'email'];
export const SUPPORTED_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

export function keycloakScope(scope: string | undefined): string {
  const granted = new Set([...(scope ?? '').split(' ').filter(Boolean), ...DEFAULT_SCOPES]);
  return SUPPORTED_SCOPES.filter((name) => granted.has(name)).join(' ');
}

// The "profile" and "email" claims Keycloak's built-in mappers emit.
export function profileClaims(user: User): Record<string, unknown> {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return Object.fromEntries(Object.entries({
    email_verified: user.email ? user.emailVerified === true : undefined,
    name: name || undefined,
    preferred_username: user.username,
    given_name: user.firstName,
    family_name: user.lastName,
    email: user.email,
  }).filter(([, value]) => value !== undefined));
}

export function findAccount(users: UserDirectory) {
  return async (_ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined> => {
    const user = users.byId(sub);
    if (!user) return undefined;
    return { accountId: user.id, claims: () => ({ sub: user.id, ...profileClaims(user) }) };
  };
}

// formats.customizers.jwt: replaces oidc-provider's RFC 9068 payload with Keycloak's access-token layout.
// keycloak-connect requires payload `typ` = "Bearer"; the API reads realm_access.roles.
export function keycloakAccessToken(users: UserDirectory) {
  return async (_ctx: KoaContextWithOIDC, token: Token, jwt: StructuredJwt): Promise<void> => {
    const { payload } = jwt;
    const clientId = String(payload.client_id);
    const serviceToken = token.kind === 'ClientCredentials';
    const user = serviceToken ? users.serviceAccountOf(clientId) : users.byId(String(payload.sub));
    jwt.header = { typ: 'JWT' };
    jwt.payload = {
      exp: payload.exp,
      iat: payload.iat,
      jti: payload.jti,
      iss: payload.iss,
      aud: payload.aud,
      sub: user?.id ?? payload.sub,
      typ: 'Bearer',
      azp: clientId,
      realm_access: { roles: user?.roles ?? [] },
      scope: keycloakScope(typeof payload.scope === 'string' ? payload.scope : undefined),
      ...(serviceToken ? { client_id: clientId } : {}),
      ...(user ? profileClaims(user) : {}),
    };
  };
}
