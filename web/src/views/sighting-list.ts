// One paged, sortable list of sightings for every screen (mine, a vessel's, search): a page of 50 with their memos in
// one request, "1–50 of 2,001", more on demand from the `Link` header, the order chosen by column header.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { number } from '../format.ts';
import { firstPageUrl, pageSize, pageUrlAt, readPage, type ListQuery } from '../sighting-pages.ts';
import { listControls } from './list-controls.ts';
import { sightingTable } from './sighting-table.ts';
import { progressLine, showProgress } from './progress.ts';
import { exportButton } from './export-button.ts';

export interface ListOptions {
  /** Shown when nothing matches. */
  empty: string;
  /** The same screen in another order (a route change: the address keeps it). */
  sortBy(sort: string): void;
  /** After a delete was sent and its row taken away (the list's count already follows). */
  onDeleted?(id: number): void;
  status: HTMLElement;
  /** How many pages the address says were shown (Back to a list shows as many again). */
  pages?: number;
  /** Called with the number of pages shown after "more": the screen keeps it in its address. */
  onPages?(pages: number): void;
  /** Rows per page (50 unless picked), and how to ask for another size (a route change). */
  size?: number;
  resize?(size: number): void;
  /** Which page the list starts at (1 unless the person jumped), and how to jump to another (a route change). */
  page?: number;
  jump?(page: number): void;
}

/** At most this many pages are read again on the way back: a list is not reloaded whole. */
const maxPagesAgain = 10;
/** Which sighting's page the person opened from a list: its row takes the focus when they come back. */
const returnFocus = 'sighting.return-focus';

/** The newest first by default; with a date range, the days in their order. */
export function defaultSort(ranged: boolean): string {
  return ranged ? 'sightingDate' : '-sightingId';
}

/** The table, its count and its "more" button; or the error's text when the first page could not be read. */
export async function sightingList(ctx: Context, asked: ListQuery,
  options: ListOptions): Promise<HTMLElement | string> {
  const query = { ...asked, limit: options.size };
  const size = options.size ?? pageSize;
  // A jump passes over the rows before its page; past the end of the list, the list opens at its start.
  const skipped = (options.page ?? 1) > 1 ? (options.page! - 1) * size : 0;
  const startUrl = skipped ? await pageUrlAt(ctx, query, skipped) : undefined;
  const start = startUrl ? skipped : 0;
  const first = await readPage(ctx, startUrl ?? firstPageUrl(ctx, query), query);
  if ('error' in first) return first.error;
  if (!first.rows.length) return h('p', {}, options.empty);
  const controls = listControls({ sort: query.sort, sortable: ctx.settings.sortable, sortBy: options.sortBy,
    defaultSort: defaultSort(Boolean(query.sightingDateFrom || query.sightingDateBefore)),
    size, resize: options.resize, page: start / size + 1, pages: Math.ceil(first.total / size), jump: options.jump });
  let { total, next } = first;
  let shown = 0;
  const count = h('p', { class: 'hint', 'aria-live': 'polite', 'data-testid': 'list-count' });
  const counted = () => {
    count.textContent =
      t('web.list.shown', { first: number(start + 1), last: number(start + shown), total: number(total) });
  };
  // A completed delete takes its row away in place: the pages shown, the scroll, the focus and the address stay.
  const onDeleted = (id: number) => {
    shown -= 1;
    total -= 1;
    counted();
    options.onDeleted?.(id);
  };
  const table = sightingTable(ctx, { sort: query.sort, sortBy: options.sortBy, onDeleted, status: options.status });
  const show = (page: typeof first) => {
    shown += page.rows.length;
    total = page.total;
    counted();
    return table.append(page.rows, page.mine);
  };
  show(first);
  let pages = 1;
  // Back from a record: as many pages as were shown, read again (fresh, since it may have changed meanwhile).
  for (; next && pages < Math.min(options.pages ?? 1, maxPagesAgain); pages++) {
    const page = await readPage(ctx, next, query);
    if ('error' in page) break;
    show(page);
    next = page.next;
  }
  const opened = Number(sessionStorage.getItem(returnFocus));
  sessionStorage.removeItem(returnFocus);
  // The shell gives the focus to this link instead of the heading: the keyboard goes on where it left.
  table.element.querySelector(`tr[data-sighting-id="${opened}"] a`)?.setAttribute('data-return-focus', '');
  table.element.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[href^="#sighting/"]');
    if (link) sessionStorage.setItem(returnFocus, link.closest('tr')!.getAttribute('data-sighting-id')!);
  });
  const newestFirst = query.sort === '-sightingId';
  const more =
    h('button', { type: 'button', class: 'more', hidden: !next }, t(newestFirst ? 'web.list.more' : 'web.list.next'));
  let loading = false;
  const moreProgress = progressLine();
  more.addEventListener('click', async () => {
    if (!next || loading) return;
    // Not `disabled`: a disabled button drops the focus to <body>.
    loading = true;
    const loaded = showProgress(more, moreProgress, t('web.list.loadingMore'));
    const page = await readPage(ctx, next, query);
    loading = false;
    loaded();
    if ('error' in page) {
      options.status.textContent = page.error;
      return;
    }
    const firstNew = show(page);
    next = page.next;
    options.onPages?.(++pages);
    more.hidden = !next;
    // The keyboard goes on where the new rows begin (the focus would otherwise fall to <body> with a hidden button).
    firstNew?.querySelector<HTMLElement>('a')?.focus();
  });
  return h('div', {}, controls, exportButton(ctx, asked), count, table.element, more, moreProgress);
}
