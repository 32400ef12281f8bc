// The API client: openapi-fetch typed by generated/openapi.ts (the same client the tests use), with the session's
// token.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../generated/openapi.ts';
import type { Session } from './oidc.ts';
import { locale } from './i18n.ts';

export type Schemas = components['schemas'];
/**
 * The media types the page reads and sends, JSON's and XML's: the lists' export formats (CSV, JSON lines) are files
 * to save, not values; left in, every list's answer would be typed as a string too.
 */
export type Media = `${string}/json` | `${string}/${string}+json` | `${string}/xml` | 'text/event-stream';
export type Api = ReturnType<typeof createClient<paths, Media>>;

/** The contract's error bodies: `{general}` or one `{message, key}` per field path. */
export type ErrorBody = { general?: string } & Record<string, { message: string; key: string } | string | undefined>;

export function apiClient(apiPath: string, session: Session): Api {
  const client = createClient<paths, Media>({ baseUrl: `${location.origin}${apiPath}` });
  const auth: Middleware = {
    async onRequest({ request }) {
      const token = await session.accessToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      // The cookie already says it once the person picks a language; before that the page's choice is the browser's.
      request.headers.set('Accept-Language', locale());
      return request;
    },
    async onResponse({ request, response }) {
      // openapi-fetch leaves an empty body (201, 204) unread; Chromium then cancels the finished request (ERR_ABORTED).
      if (response.headers.get('Content-Length') === '0') {
        await response.arrayBuffer();
        response =
          new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
      }
      // A token revoked or expired early: refresh once and send a bodiless request again (a body is read already).
      if (response.status !== 401 || !['GET', 'DELETE'].includes(request.method) || !(await session.refresh()))
        return response;
      const headers = new Headers(request.headers);
      headers.set('Authorization', `Bearer ${await session.accessToken()}`);
      return fetch(request.url, { method: request.method, headers });
    },
  };
  client.use(auth);
  return client;
}
