// Koa middleware that adjusts oidc-provider's answers where Keycloak (and RFC 6749) answer differently.
import type { KoaContextWithOIDC } from 'oidc-provider';
import { ROUTES } from './configuration.ts';
import type { Request } from 'express';
import type { Locale } from '../i18n/messages.ts';
import { uiLocale } from '../i18n/request-locale.ts';
import { LOGIN_PATH, loginPage } from './login-page.ts';

/** `realmName` gives the realm's display name in a language. */
export function keycloakResponses(realmName: (locale: Locale) => string) {
  return async function keycloakResponse(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    const authorization = ctx.path === ROUTES.authorization && ctx.method === 'GET';
    // Keycloak grants its default scopes to an authorization request without `scope` (plain OAuth 2.0);
    // oidc-provider would end such a request in access_denied, having granted nothing. Ask for `openid` instead.
    if (authorization && !ctx.query.scope) ctx.query = { ...ctx.query, scope: 'openid' };
    await next();
    if (ctx.path === ROUTES.token) {
      // RFC 6749 §5.1 asks for Pragma: no-cache next to Cache-Control: no-store; the charset spelling is Keycloak's.
      ctx.set('Pragma', 'no-cache');
      // RFC 6749 §5.2: a client not allowed a grant type gets unauthorized_client (oidc-provider says invalid_request).
      const body = ctx.body as { error?: string; error_description?: string } | undefined;
      if (body?.error_description === 'requested grant type is not allowed for this client') body.error =
        'unauthorized_client';
      if (ctx.response.is('json')) ctx.set('Content-Type', 'application/json;charset=UTF-8');
    }
    // Keycloak shows its login form right at the authorization endpoint; oidc-provider redirects to the
    // interaction URL instead. Serve that page in place (the interaction cookies are already set) and post to it.
    const location = ctx.response.get('Location');
    if (authorization && ctx.status === 303 && location.includes(`${LOGIN_PATH}/`)) {
      ctx.remove('Location');
      ctx.status = 200;
      ctx.type = 'html';
      const locale = uiLocale(ctx.query.ui_locales, ctx.req as Request);
      ctx.body = loginPage({ realm: realmName(locale), action: location, locale });
    }
  };
}
