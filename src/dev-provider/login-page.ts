// The development provider's login: a self-contained username/password form, no consent screen.
import express from 'express';
import type { Response } from 'express';
import type Provider from 'oidc-provider';
import { message, type Locale, type MessageKey } from '../i18n/messages.ts';
import { uiLocale } from '../i18n/request-locale.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { UserDirectory } from './users.ts';

export const LOGIN_PATH = '/login-actions/authenticate';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** In the language the application asked for (`ui_locales`), else the browser's; `error` is a message key. */
export function loginPage(options: {
  realm: string; action: string; locale: Locale; username?: string; error?: MessageKey }): string {
  const say = (key: MessageKey) => escapeHtml(message(options.locale, key, { realm: options.realm }));
  const error = options.error ? `<p class="error" id="login-error" role="alert">${say(options.error)}</p>` : '';
  // After a failed attempt: the fields point at the message, and the password (cleared) gets the focus.
  const invalid = options.error ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  const focusUsername = options.username ? '' : ' autofocus';
  const focusPassword = options.username ? ' autofocus' : '';
  return `<!DOCTYPE html>
<html lang="${options.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${say('login.title')}</title>
<link rel="icon" href="data:,">
<style>
body { font-family: system-ui, sans-serif; background: #f3f4f6; margin: 0; }
main { display: grid; place-items: center; min-height: 100vh; }
form { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px #0002; display: grid;
gap: .75rem; min-width: 18rem; }
label { display: grid; gap: .25rem; }
input, button { font: inherit; padding: .5rem; }
.error { color: #b91c1c; margin: 0; }
.note { color: #4b5563; font-size: .85rem; margin: 0; }
</style>
</head>
<body>
<main>
<form method="post" action="${escapeHtml(options.action)}">
<h1>${say('login.title')}</h1>
${error}
<label>${say('login.username')} <input name="username" autocomplete="username"
value="${escapeHtml(options.username ?? '')}" required${focusUsername}${invalid}></label>
<label>${say('login.password')} <input name="password" type="password"
autocomplete="current-password" required${focusPassword}${invalid}></label>
<button type="submit">${say('login.submit')}</button>
<p class="note">${say('login.note')}</p>
</form>
</main>
</body>
</html>`;
}

// The form posts to the interaction URL (LOGIN_PATH/<uid>); the page itself is served at the authorization endpoint.
export function loginRouter(
  provider: Provider, users: UserDirectory, throttle: LoginThrottle, realmName: (locale: Locale) => string,
): express.Router {
  const send = (res: Response, html: string, status = 200, headers: Record<string, string> = {}) => {
    res.status(status).set({ 'Content-Type': 'text/html;charset=UTF-8', 'Cache-Control': 'no-store', ...headers });
    res.send(html);
  };
  return express.Router().post(`${LOGIN_PATH}/:uid`, express.urlencoded({ extended: false }), async (req, res) => {
    const details = await provider.interactionDetails(req, res).catch(() => undefined);
    const locale = uiLocale(details?.params.ui_locales, req);
    if (details?.uid !== req.params.uid) {
      const expired = escapeHtml(message(locale, 'login.expired'));
      send(res, `<!DOCTYPE html><html lang="${locale}"><title>${expired}</title><main><p>${expired}</p></main></html>`,
        400);
      return;
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username : '';
    const address = req.socket.remoteAddress;
    const wait = throttle.refusedFor(username, address);
    if (wait > 0) {
      const realm = realmName(locale);
      send(res, loginPage({ realm, action: req.originalUrl, locale, username, error: 'login.throttled' }), 429, {
        'Retry-After': String(wait),
      });
      return;
    }
    const user = users.authenticate(username, typeof body.password === 'string' ? body.password : '');
    if (!user) {
      await throttle.failed(username, address);
      // Keycloak re-renders the form with 200 and a generic message.
      send(res, loginPage({ realm: realmName(locale), action: req.originalUrl, locale, username,
        error: 'login.invalid' }));
      return;
    }
    throttle.succeeded(username);
    await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
  });
}
