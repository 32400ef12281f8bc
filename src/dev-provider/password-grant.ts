// The resource owner password credentials grant (RFC 6749 §4.3), which oidc-provider does not ship.
import { errors } from 'oidc-provider';
import type { ResourceServer, TokenEndpointGrantContext } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { keycloakScope, SUPPORTED_SCOPES } from './claims.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { UserDirectory } from './users.ts';

export const PASSWORD_GRANT_PARAMETERS = ['username', 'password', 'scope'];

type Context = TokenEndpointGrantContext<{ username?: string; password?: string }>;

// Every token is for the one resource server; `resource` names it (RFC 8707) and `api` describes it.
export function passwordGrant(
  provider: Provider, users: UserDirectory, throttle: LoginThrottle, resource: string, api: ResourceServer,
) {
  return async function passwordGrantHandler(ctx: Context): Promise<void> {
    const { client, params } = ctx.oidc;
    if (!params.username) throw new errors.InvalidRequest('Missing parameter: username');
    if (!params.password) throw new errors.InvalidRequest('Missing parameter: password');
    const scopes = (params.scope ?? '').split(' ').filter(Boolean);
    const unknown = scopes.filter((scope) => !SUPPORTED_SCOPES.includes(scope));
    if (unknown.length > 0) throw new errors.InvalidScope('Invalid scopes', unknown.join(' '));

    // The socket's address, not X-Forwarded-For (which the provider honours for its URLs): a client writes that header.
    const address = ctx.req.socket.remoteAddress;
    const wait = throttle.refusedFor(params.username, address);
    if (wait > 0) {
      ctx.set('Retry-After', String(wait));
      const description = 'Too many failed logins; try again later';
      throw Object.assign(new errors.InvalidGrant(), { error_description: description, status: 429, statusCode: 429 });
    }
    const user = users.authenticate(params.username, params.password);
    // Keycloak's answer for unknown user and wrong password alike: 401 invalid_grant (RFC 6749 §5.2).
    if (!user) {
      await throttle.failed(params.username, address);
      const description = 'Invalid user credentials';
      throw Object.assign(new errors.InvalidGrant(), { error_description: description, status: 401, statusCode: 401 });
    }
    throttle.succeeded(params.username);

    const scope = scopes.join(' ');
    const grant = new provider.Grant({ accountId: user.id, clientId: client.clientId });
    grant.addOIDCScope(scope);
    grant.addResourceScope(resource, scope);
    const grantId = await grant.save();
    const common = { accountId: user.id, client, grantId, gty: 'password', scope, expiresWithSession: false };

    const at = new provider.AccessToken({ ...common, resourceServer: new provider.ResourceServer(resource, api) });
    ctx.oidc.entity('AccessToken', at);
    const refresh = client.grantTypeAllowed('refresh_token')
      ? new provider.RefreshToken({ ...common, resource, rotations: 0, authTime: Math.floor(Date.now() / 1000) })
      : undefined;
    let idToken: string | undefined;
    if (scopes.includes('openid')) {
      const token = new provider.IdToken({ sub: user.id, ...user.profile }, { ctx });
      idToken = await Object.assign(token, { scope }).issue({ use: 'idtoken' });
    }

    ctx.body = {
      access_token: await at.save(),
      expires_in: at.expiration,
      refresh_token: await refresh?.save(),
      id_token: idToken,
      token_type: at.tokenType,
      scope: keycloakScope(scope),
    };
  };
}
