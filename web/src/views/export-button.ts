// "Export as CSV": the list as shown — its filters, its search text and its order, every row of it, memos included —
// as the API's CSV file (`Accept: text/csv`, `download=true`). Read with fetch, since the request must carry the bearer
// token (a plain link could not), and handed to the browser to save as a blob URL under the API's file name.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { firstPageUrl, type ListQuery } from '../sighting-pages.ts';
import { progressLine, showProgress } from './progress.ts';

/** The export's URL: the list's first page's, without a page size, so it is the whole list. */
export function exportUrl(ctx: Context, query: ListQuery): string {
  const url = new URL(firstPageUrl(ctx, query));
  url.searchParams.delete('limit');
  url.searchParams.set('download', 'true');
  return url.href;
}

/** `attachment; filename="sighting-20261129T031500Z.csv"` -> the name. */
const fileName = (disposition: string | null): string => /filename="([^"]+)"/.exec(disposition ?? '')?.[1]
  ?? 'sightings.csv';

async function download(ctx: Context, query: ListQuery): Promise<string | undefined> {
  const token = await ctx.session.accessToken();
  const response = await fetch(exportUrl(ctx, query), {
    method: query.text ? 'POST' : 'GET',
    headers: { Accept: 'text/csv', 'Accept-Language': document.documentElement.lang,
      ...(token && { Authorization: `Bearer ${token}` }), ...(query.text && { 'Content-Type': 'application/json' }) },
    ...(query.text && { body: JSON.stringify({ sightingMemo: query.text }) }),
  }).catch(() => undefined);
  if (!response) return t('web.error.network');
  if (!response.ok) {
    return (await response.json().catch(() => ({})) as { general?: string }).general ?? t('error.unknown');
  }
  const url = URL.createObjectURL(await response.blob());
  const link = h('a', { href: url, download: fileName(response.headers.get('Content-Disposition')), hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started its own download from the blob by the time the next task runs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return undefined;
}

export function exportButton(ctx: Context, query: ListQuery): HTMLElement {
  const line = progressLine();
  const failure = h('p', { class: 'form-error', role: 'alert' });
  let busy = false;
  const button = h('button', { type: 'button', class: 'export' }, t('web.export.csv'));
  button.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    failure.textContent = '';
    const done = showProgress(button, line, t('web.export.preparing'));
    const problem = await download(ctx, query);
    done();
    busy = false;
    if (problem) failure.textContent = t('web.export.failed', { reason: problem });
  });
  return h('div', { class: 'export-line' }, button, line, failure);
}
