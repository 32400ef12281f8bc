// One paged, sortable list of sightings for every screen (mine, a vessel's, search): a page of 50 with their memos in
// one request, "1–50 of 2,001", more on demand from the `Link` header, the order chosen by column header.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { number } from '../format.ts';
import { firstPageUrl, readPage, type ListQuery } from '../sighting-pages.ts';
import { sightingTable } from './sighting-table.ts';

export interface ListOptions {
  /** Shown when nothing matches. */
  empty: string;
  /** The same screen in another order (a route change: the address keeps it). */
  sortBy(sort: string): void;
  onDeleted(id: number): void;
  status: HTMLElement;
}

/** The newest first by default; with a date range, the days in their order. */
export function defaultSort(ranged: boolean): string {
  return ranged ? 'sightingDate' : '-sightingId';
}

/** The table, its count and its "more" button; or the error's text when the first page could not be read. */
export async function sightingList(ctx: Context, query: ListQuery, options: ListOptions): Promise<HTMLElement | string> {
  const first = await readPage(ctx, firstPageUrl(ctx, query), query);
  if ('error' in first) return first.error;
  if (!first.rows.length) return h('p', {}, options.empty);
  let { total, next } = first;
  let shown = 0;
  const table = sightingTable(ctx, { sort: query.sort, sortBy: options.sortBy, onDeleted: options.onDeleted, status: options.status });
  const count = h('p', { class: 'hint', 'aria-live': 'polite', 'data-testid': 'list-count' });
  const show = (page: typeof first) => {
    shown += page.rows.length;
    total = page.total;
    count.textContent = t('web.list.shown', { first: number(1), last: number(shown), total: number(total) });
    return table.append(page.rows, page.mine);
  };
  show(first);
  const newestFirst = query.sort === '-sightingId';
  const more = h('button', { type: 'button', class: 'more', hidden: !next }, t(newestFirst ? 'web.list.more' : 'web.list.next'));
  let loading = false;
  more.addEventListener('click', async () => {
    if (!next || loading) return;
    // Not `disabled`: a disabled button drops the focus to <body>.
    loading = true;
    more.setAttribute('aria-busy', 'true');
    const page = await readPage(ctx, next, query);
    loading = false;
    more.removeAttribute('aria-busy');
    if ('error' in page) {
      options.status.textContent = page.error;
      return;
    }
    const firstNew = show(page);
    next = page.next;
    more.hidden = !next;
    // The keyboard goes on where the new rows begin (the focus would otherwise fall to <body> with a hidden button).
    firstNew?.querySelector<HTMLElement>('a')?.focus();
  });
  return h('div', {}, count, table.element, more);
}
