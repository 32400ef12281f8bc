// The embedded provider's interaction pages: a self-contained username/password form, no consent screen.
import express from 'express';
import type { Request, Response } from 'express';
import type { Provider } from 'oidc-provider';
import type { UserDirectory } from './users.ts';

export const LOGIN_PATH = '/login-actions/authenticate';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function loginPage(options: { realm: string; action: string; username?: string; error?: string }): string {
  const error = options.error ? `<p class="error" id="login-error" role="alert">${escapeHtml(options.error)}</p>` : '';
  // After a failed attempt: the fields point at the message, and the password (cleared) gets the focus.
  const invalid = options.error ? ' aria-invalid="true" aria-describedby="login-error"' : '';
  const focusUsername = options.username ? '' : ' autofocus';
  const focusPassword = options.username ? ' autofocus' : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to ${escapeHtml(options.realm)}</title>
<link rel="icon" href="data:,">
<style>
body { font-family: system-ui, sans-serif; background: #f3f4f6; display: grid; place-items: center; min-height: 100vh; margin: 0; }
form { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px #0002; display: grid; gap: .75rem; min-width: 18rem; }
label { display: grid; gap: .25rem; }
input, button { font: inherit; padding: .5rem; }
.error { color: #b91c1c; margin: 0; }
.note { color: #6b7280; font-size: .85rem; margin: 0; }
</style>
</head>
<body>
<form method="post" action="${escapeHtml(options.action)}">
<h1>Sign in to ${escapeHtml(options.realm)}</h1>
${error}
<label>Username <input name="username" autocomplete="username" value="${escapeHtml(options.username ?? '')}" required${focusUsername}${invalid}></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required${focusPassword}${invalid}></label>
<button type="submit">Sign in</button>
<p class="note">Embedded development provider: not for production.</p>
</form>
</body>
</html>`;
}

function sendPage(res: Response, status: number, html: string): void {
  res.status(status).set({ 'Content-Type': 'text/html;charset=UTF-8', 'Cache-Control': 'no-store' }).send(html);
}

// The form posts back to the page's own URL, which carries the interaction uid.
function actionOf(req: Request): string {
  return req.originalUrl;
}

export function loginRouter(provider: Provider, users: UserDirectory, realm: string): express.Router {
  const router = express.Router();

  router.get(`${LOGIN_PATH}/:uid`, async (req, res) => {
    const details = await provider.interactionDetails(req, res).catch(() => undefined);
    if (!details || details.uid !== req.params.uid) {
      sendPage(res, 400, '<!DOCTYPE html><title>Login expired</title><p>Your login attempt timed out or was already used. Start again from the application.</p>');
      return;
    }
    if (details.prompt.name !== 'login') {
      // Consent is granted up front by loadExistingGrant; any other prompt is unexpected, so abort cleanly.
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: `unsupported prompt ${details.prompt.name}` });
      return;
    }
    sendPage(res, 200, loginPage({ realm, action: actionOf(req) }));
  });

  router.post(`${LOGIN_PATH}/:uid`, express.urlencoded({ extended: false }), async (req, res) => {
    const details = await provider.interactionDetails(req, res).catch(() => undefined);
    if (!details || details.uid !== req.params.uid) {
      sendPage(res, 400, '<!DOCTYPE html><title>Login expired</title><p>Your login attempt timed out. Start again from the application.</p>');
      return;
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const user = users.authenticate(username, password);
    if (!user) {
      // Keycloak re-renders the form with 200 and a generic message.
      sendPage(res, 200, loginPage({ realm, action: actionOf(req), username, error: 'Invalid username or password.' }));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
  });

  return router;
}
