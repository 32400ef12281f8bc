// A list of sightings newest first, a page at a time: the first page now, older ones on demand from the `Link` header.
import type { Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { sightingTable } from './sighting-table.ts';
import { ownAmong, type SightingFilters } from '../own-sightings.ts';
import { fillMemos } from '../memos.ts';

const pageSize = 50;
type Query = SightingFilters & { mine?: boolean };

/** The `rel="next"` target of a list answer's `Link` header (RFC 8288), if there is a next page. */
function nextLink(response: Response): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1];
}

/** The table and its "older" button, or undefined with the error's text when the first page could not be read. */
export async function pagedSightings(ctx: Context, query: Query, empty: string, onDeleted: () => void, status: HTMLElement): Promise<HTMLElement | string> {
  const first = await ctx.api.GET('/sighting', { params: { query: { ...query, sort: '-sightingId', limit: pageSize }, header: { Prefer: 'count=exact' } } });
  if (!first.data) return (first.error as { general?: string } | undefined)?.general ?? t('error.unknown');
  const rows: Schemas['SightingListItem'][] = [...first.data];
  // My own list is all mine; another list asks which of its shown rows are.
  const { mine: own, ...filters } = query;
  const ownOf = async (page: Schemas['SightingListItem'][]) => own ? page.map((row) => row.sightingId) : ownAmong(ctx, page.map((row) => row.sightingId), filters);
  const mine = new Set(await ownOf(rows));
  const total = Number(first.response.headers.get('X-Total-Count') ?? rows.length);
  const shown = h('p', { class: 'hint', 'aria-live': 'polite' });
  const count = () => { shown.textContent = rows.length ? t('web.list.shown', { shown: rows.length, total }) : ''; };
  count();
  const memos = new Map<number, string>();
  const table = h('div', {}, rows.length ? sightingTable(ctx, rows, mine, onDeleted, status, memos) : h('p', {}, empty));
  void fillMemos(ctx, rows.map((row) => row.sightingId), memos, table);
  const more = h('button', { type: 'button', class: 'more' }, t('web.list.more'));
  let next = nextLink(first.response);
  more.hidden = !next;
  more.addEventListener('click', async () => {
    if (!next) return;
    more.disabled = true;
    const { data, response } = await ctx.api.GET('/sighting', { params: { query: Object.fromEntries(new URL(next, location.href).searchParams) as never } });
    more.disabled = false;
    if (!data) return;
    rows.push(...data);
    for (const id of await ownOf(data)) mine.add(id);
    table.replaceChildren(sightingTable(ctx, rows, mine, onDeleted, status, memos));
    void fillMemos(ctx, data.map((row) => row.sightingId), memos, table);
    count();
    next = nextLink(response);
    more.hidden = !next;
  });
  return h('div', {}, shown, table, more);
}
