// The web page: reads its settings from the service, completes a sign-in, then shows the screen the `#…` route names.
import './style.css';
import { apiClient, type Schemas } from './api.ts';
import type { Context, WebSettings } from './context.ts';
import { Session } from './oidc.ts';
import { shell } from './views/shell.ts';
import { t } from './i18n.ts';

async function start(): Promise<void> {
  const root = document.getElementById('app')!;
  // The service says where its API and its realm are (BASE_PATH, KEYCLOAK_URL): nothing is hard-coded here.
  const settings = await fetch('./web-config.json').then((r) => r.json() as Promise<WebSettings>);
  const session = new Session(settings);
  let returnTo: string | undefined;
  let failure: string | undefined;
  try {
    returnTo = await session.completeSignIn();
  } catch {
    // E.g. the person cancelled at the provider (error=access_denied): say so on the signed-out screen, in words
    // for a person (the provider's error code is for developers).
    failure = t('web.signIn.failedRetry');
  }
  if (returnTo === undefined && failure === undefined && session.shouldTrySilently())
    return session.signIn(location.hash, { silent: true });
  const api = apiClient(settings.apiPath, session);
  const cache = new Map<string, Promise<unknown>>();
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    if (!cache.has(key)) cache.set(key, load().catch((error: unknown) => { cache.delete(key); throw error; }));
    return cache.get(key) as Promise<T>;
  };
  const shared: Omit<Context, 'screen'> = {
    settings, session, api,
    get isAdmin() { return session.claims.realm_access?.roles?.includes('admin') ?? false; },
    get isWriter() { return session.claims.realm_access?.roles?.includes('writer') ?? false; },
    navigate: (route, notice, options) => app.show(route, notice, options),
    vessels: () =>
      cached('vessels', async () => ((await api.GET('/vessel')).data ?? []) as Schemas['VesselListItem'][]),
    timezones: () =>
      cached('timezones', async () => ((await api.GET('/timezone')).data ?? []).map((z) => z.timezoneName).sort()),
  };
  // Vessel names are localized and vessels change under admin: look them up afresh on every screen change.
  const app = shell(root, shared, () => cache.delete('vessels'));
  // Said where the person is: "Sign in" there comes back to the same screen.
  session.onSignedOut = () => app.show(location.hash, t('web.signIn.expired'));
  if (returnTo !== undefined) history.replaceState(null, '', returnTo || location.pathname);
  app.show(location.hash, failure);
}

void start();
