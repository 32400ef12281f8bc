// Shapes accounts and access-token payloads the way Keycloak does, so keycloak-connect and the API accept them.
import type { AccessToken, ClientCredentials, FindAccount, JWTStructured, KoaContextWithOIDC } from 'oidc-provider';
import type { UserDirectory } from './users.ts';

// Keycloak's realm default client scopes; they apply to every token whether requested or not.
const DEFAULT_SCOPES = ['profile', 'email'];
export const SUPPORTED_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

export function keycloakScope(scope: unknown): string {
  const granted = new Set([...(typeof scope === 'string' ? scope.split(' ') : []), ...DEFAULT_SCOPES]);
  return SUPPORTED_SCOPES.filter((name) => granted.has(name)).join(' ');
}

export function findAccount(users: UserDirectory): FindAccount {
  return (_ctx, sub) => {
    const user = users.byId(sub);
    return user && { accountId: user.id, claims: () => ({ sub: user.id, ...user.profile }) };
  };
}

// Adds to oidc-provider's RFC 9068 payload what Keycloak's access tokens carry: keycloak-connect requires
// `typ` = "Bearer", the API reads realm_access.roles; a service token's subject is its service account.
export function keycloakAccessToken(users: UserDirectory) {
  return (_ctx: KoaContextWithOIDC, token: AccessToken | ClientCredentials, jwt: JWTStructured): void => {
    const { payload } = jwt;
    const clientId = String(payload.client_id);
    const user = token.kind === 'ClientCredentials' ? users.serviceAccountOf(clientId)
      : users.byId(String(payload.sub));
    Object.assign(payload, {
      sub: user?.id ?? payload.sub,
      typ: 'Bearer',
      azp: clientId,
      realm_access: { roles: user?.roles ?? [] },
      scope: keycloakScope(payload.scope),
      ...user?.profile,
    });
  };
}
