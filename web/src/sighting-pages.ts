// Reads a sighting list a page at a time: the rows in the detail view (their memos in the same request,
// docs/behaviour.md#list), the total (`Prefer: count=exact`), the next page's URL, and which rows are the caller's.
import type { Schemas } from './api.ts';
import type { Context } from './context.ts';
import { t } from './i18n.ts';

export type Row = Schemas['SightingDetail'];

/** What a list shows: the API's filters, a memo text to search for, and the order (`sort`). */
export interface ListQuery {
  vesselId?: number;
  sightingDateFrom?: string;
  sightingDateBefore?: string;
  mine?: boolean;
  /** A text the memo contains (query by example): a search beside the filters. */
  text?: string;
  sort: string;
  /** Rows per page; 50 unless the person picked another size. */
  limit?: number;
}

export interface Page { rows: Row[]; total: number; next?: string; mine: Set<number> }

export const pageSize = 50;

/** The `rel="next"` target of a list answer's `Link` header (RFC 8288), if there is a next page. */
const nextLink = (response: Response): string | undefined =>
  /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1];

/**
 * The order as the API takes it: `-vesselName,sightingDate` is `vesselNameOrder=desc&sort=sightingDate`, a leading
 * field with an order parameter of its own (the contract's `sort` pattern does not name it).
 */
function orderOf(ctx: Context, sort: string): [string, string][] {
  const [first = '', ...rest] = sort.split(',');
  const parameter = ctx.settings.orderParameters[first.replace(/^-/, '')];
  if (!parameter) return [['sort', sort]];
  return [[parameter, first.startsWith('-') ? 'desc' : 'asc'], ...rest.length ? [['sort', rest.join(',')]] : []] as
    [string, string][];
}

/**
 * Each view is an operation of its own (the `view` parameter is deprecated): a list's detail view is
 * `/sighting/detail-view`, its list view `/sighting`; a search's detail view is `/sighting/qbe`, its list view
 * `/sighting/qbe/list-view`. `url` (a first page's or a `Link`'s) in `view`, its query kept.
 */
export function inView(url: string, view: 'list' | 'detail'): string {
  const moved = new URL(url);
  const search = /\/qbe(\/list-view)?$/.test(moved.pathname);
  const base = moved.pathname.replace(/\/(detail-view|list-view)$/, '');
  const suffix = search ? view === 'list' && '/list-view' : view === 'detail' && '/detail-view';
  moved.pathname = `${base}${suffix || ''}`;
  return moved.href;
}

/** The first page's URL, in the detail view; later pages come from the `Link` header, which keeps the operation. */
export function firstPageUrl(ctx: Context, { text, limit = pageSize, sort, ...query }: ListQuery): string {
  const parameters = new URLSearchParams({ limit: String(limit) });
  for (const [name, value] of [...Object.entries(query), ...orderOf(ctx, sort)]) {
    if (value !== undefined && value !== false) parameters.set(name, String(value));
  }
  return inView(`${location.origin}${ctx.settings.apiPath}/sighting${text ? '/qbe' : ''}?${parameters}`, 'detail');
}

/** The most rows the API gives in one answer (`limit`'s maximum): the step when a jump passes over rows. */
const largestPage = 1000;

/**
 * The URL of the page starting at row `skip` (0-based): the rows before it are passed over in the list view, up to
 * 1,000 an answer, each answer's `Link` leading on; the last one's leads to where the page starts (its cursor names
 * a row, whatever the limit and view). Undefined when the list ends before, or an answer fails.
 */
export async function pageUrlAt(ctx: Context, query: ListQuery, skip: number): Promise<string | undefined> {
  let url = firstPageUrl(ctx, query);
  for (let left = skip; left > 0;) {
    const step = Math.min(left, largestPage);
    const passed = new URL(inView(url, 'list'));
    passed.searchParams.set('limit', String(step));
    const response = await request(ctx, passed.href, query.text, false).catch(() => undefined);
    // Read whole: the answer is a stream the server would otherwise see cut.
    await response?.arrayBuffer().catch(() => undefined);
    const next = response?.ok ? nextLink(response) : undefined;
    if (!next) return undefined;
    left -= step;
    url = new URL(next, location.origin).href;
  }
  const page = new URL(inView(url, 'detail'));
  page.searchParams.set('limit', String(query.limit ?? pageSize));
  return page.href;
}

/** One GET of a list or POST of a query by example (the search text is its example). */
async function request(ctx: Context, url: string, text: string | undefined, count: boolean): Promise<Response> {
  const token = await ctx.session.accessToken();
  return fetch(url, {
    method: text ? 'POST' : 'GET',
    headers: {
      Accept: 'application/json', 'Accept-Language': document.documentElement.lang,
      ...(token && { Authorization: `Bearer ${token}` }), ...(count && { Prefer: 'count=exact' }),
      ...(text && { 'Content-Type': 'application/json' }),
    },
    ...(text && { body: JSON.stringify({ sightingMemo: text }) }),
  });
}

/**
 * The caller's own sightings from where a page starts, without showing anyone's identity: the same request from the
 * same place with `mine=true` (the list view, as many rows as a page). A page is a run of the list in its order, so
 * the caller's rows among it are among the first ones of the caller's own list from there. Sent beside the page's
 * request, not after it: the two take one round trip.
 */
async function ownFrom(ctx: Context, url: string, text: string | undefined): Promise<number[]> {
  const own = new URL(inView(url, 'list'));
  own.searchParams.set('mine', 'true');
  own.searchParams.set('limit', own.searchParams.get('limit') ?? String(pageSize));
  const response = await request(ctx, own.href, text, false).catch(() => undefined);
  if (response?.status !== 200) return [];
  return (await response.json() as { sightingId: number }[]).map((row) => row.sightingId);
}

/** A page from `url` (the first page's or a `Link`'s); an error body's message, or an unknown error, as text. */
export async function readPage(ctx: Context, url: string, query: ListQuery): Promise<Page | { error: string }> {
  // A network failure is a TypeError with the browser's own words ("Failed to fetch"): the person gets ours.
  // My own list is all mine; another list asks which of its rows are, at the same time.
  const own = query.mine ? undefined : ownFrom(ctx, url, query.text);
  const response = await request(ctx, url, query.text, true).catch(() => undefined);
  if (!response) return { error: t('web.error.network') };
  if (response.status === 204) return { rows: [], total: 0, mine: new Set() };
  if (!response.ok)
    return { error: (await response.json().catch(() => ({})) as { general?: string }).general ?? t('error.unknown') };
  const rows = await response.json() as Row[];
  // Read before the next request: a page whose rows are all mine needs no second one.
  const total = Number(response.headers.get('X-Total-Count') ?? rows.length);
  const next = nextLink(response);
  const absolute = next && new URL(next, location.origin).href;
  const shown = new Set(rows.map((row) => row.sightingId));
  const mine = new Set(own ? (await own).filter((id) => shown.has(id)) : shown);
  return { rows, total, next: absolute, mine };
}

/** How many sightings the filters match (`Prefer: count=exact` on a one-row page): counts that honour a date range. */
export async function countOf(ctx: Context, query: Omit<ListQuery, 'sort' | 'text'>): Promise<number | undefined> {
  const url = new URL(inView(firstPageUrl(ctx, { ...query, sort: 'sightingId' }), 'list'));
  url.searchParams.set('limit', '1');
  const response = await request(ctx, url.href, undefined, true).catch(() => undefined);
  return response?.ok ? Number(response.headers.get('X-Total-Count')) : undefined;
}

/**
 * Whether the caller may change sighting `id`: an administrator may change any; anyone else their own, asked as the
 * lists ask (`sightingId=…&mine=true`, one row or none), since no view says whose a sighting is.
 */
export async function mayChange(ctx: Context, id: number): Promise<boolean> {
  if (ctx.isAdmin) return true;
  const url = new URL(`${location.origin}${ctx.settings.apiPath}/sighting`);
  const own = { sightingId: String(id), mine: 'true', limit: '1' };
  for (const [name, value] of Object.entries(own)) url.searchParams.set(name, value);
  const response = await request(ctx, url.href, undefined, false).catch(() => undefined);
  return response?.status === 200 && (await response.json() as unknown[]).length === 1;
}
