// Sends a body with XMLHttpRequest rather than fetch: only XMLHttpRequest tells how much of a request body has left
// (its `upload` progress events), which a large import shows as a progress bar.
import type { Context } from './context.ts';
import { locale } from './i18n.ts';

export interface Sent { status: number; body: unknown }

export interface UploadWatch {
  /** Part of the body sent so far, 0 to 1. */
  onProgress(sent: number): void;
  /** The whole body has left: the service stores it now. */
  onUploaded(): void;
}

/** POSTs `body` to the API's `path`; resolves with the answer (its JSON body, if any), rejects on a network failure. */
export async function upload(ctx: Context, path: string, body: string, headers: Record<string, string>,
  watch: UploadWatch): Promise<Sent> {
  const token = await ctx.session.accessToken();
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${location.origin}${ctx.settings.apiPath}${path}`);
    for (const [name, value] of Object.entries({ ...headers, Accept: 'application/json',
      'Accept-Language': locale(), ...(token && { Authorization: `Bearer ${token}` }) })) {
      request.setRequestHeader(name, value);
    }
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) watch.onProgress(event.loaded / event.total);
    });
    request.upload.addEventListener('load', () => watch.onUploaded());
    request.addEventListener('load', () => {
      let parsed: unknown;
      try {
        parsed = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      resolve({ status: request.status, body: parsed });
    });
    request.addEventListener('error', () => reject(new TypeError('network')));
    request.addEventListener('abort', () => reject(new TypeError('aborted')));
    request.send(body);
  });
}
