// The resource owner password credentials grant (RFC 6749 §4.3), which oidc-provider does not ship.
import { errors } from 'oidc-provider';
import type { KoaContextWithOIDC, Provider, ResourceServerInfo } from 'oidc-provider';
import { findAccount, keycloakScope, SUPPORTED_SCOPES } from './claims.ts';
import type { UserDirectory } from './users.ts';

export const PASSWORD_GRANT_PARAMETERS = ['username', 'password', 'scope'];

interface PasswordGrantOptions {
  provider: Provider;
  users: UserDirectory;
  resource: string;
  resourceServer: ResourceServerInfo;
}

function param(ctx: KoaContextWithOIDC, name: string): string | undefined {
  const value = ctx.oidc.params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function passwordGrant({ provider, users, resource, resourceServer }: PasswordGrantOptions) {
  const lookup = findAccount(users);
  return async function passwordGrantHandler(ctx: KoaContextWithOIDC): Promise<void> {
    const client = ctx.oidc.client;
    if (!client) throw new errors.InvalidRequest('client not authenticated');
    const username = param(ctx, 'username');
    const password = param(ctx, 'password');
    if (!username) throw new errors.InvalidRequest('Missing parameter: username');
    if (!password) throw new errors.InvalidRequest('Missing parameter: password');

    const scopes = (param(ctx, 'scope') ?? '').split(' ').filter(Boolean);
    const unknown = scopes.filter((scope) => !SUPPORTED_SCOPES.includes(scope));
    if (unknown.length > 0) throw new errors.InvalidScope('Invalid scopes', unknown.join(' '));

    const user = users.authenticate(username, password);
    if (!user) {
      // Keycloak's answer for unknown user and wrong password alike: 401 invalid_grant (RFC 6749 §5.2).
      throw Object.assign(new errors.InvalidGrant(), {
        error_description: 'Invalid user credentials', status: 401, statusCode: 401,
      });
    }
    const account = await lookup(ctx, user.id);
    if (!account) throw new errors.InvalidGrant();
    ctx.oidc.entity('Account', account);

    const scope = scopes.join(' ');
    const grant = new provider.Grant({ accountId: user.id, clientId: client.clientId });
    if (scope) {
      grant.addOIDCScope(scope);
      grant.addResourceScope(resource, scope);
    }
    const grantId = await grant.save();
    ctx.oidc.entity('Grant', grant);

    const at = new provider.AccessToken({
      accountId: user.id, client, grantId, gty: 'password', scope: scope || undefined, expiresWithSession: false,
    });
    at.resourceServer = new provider.ResourceServer(resource, resourceServer);
    ctx.oidc.entity('AccessToken', at);
    const accessToken = await at.save();

    let refreshToken: string | undefined;
    if (client.grantTypeAllowed('refresh_token')) {
      const rt = new provider.RefreshToken({
        accountId: user.id,
        client,
        grantId,
        gty: 'password',
        resource,
        rotations: 0,
        scope: scope || undefined,
        authTime: Math.floor(Date.now() / 1000),
        expiresWithSession: false,
      });
      ctx.oidc.entity('RefreshToken', rt);
      refreshToken = await rt.save();
    }

    let idToken: string | undefined;
    if (scopes.includes('openid')) {
      const token = new provider.IdToken(await account.claims('id_token', scope, {}, []), { ctx });
      token.scope = scope;
      token.mask = {};
      token.rejected = [];
      idToken = await token.issue({ use: 'idtoken' });
    }

    ctx.body = Object.fromEntries(Object.entries({
      access_token: accessToken,
      expires_in: at.expiration,
      refresh_token: refreshToken,
      id_token: idToken,
      token_type: at.tokenType,
      scope: keycloakScope(scope),
    }).filter(([, value]) => value !== undefined));
  };
}
