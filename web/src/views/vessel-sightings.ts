// "Who else saw it": one vessel's sightings, newest first a page at a time, how many people sighted it and how many
// of them are yours, and new sightings announced as they happen (the change feed) without moving the rows.
import type { Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { followChanges } from '../change-feed.ts';
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';
import { number } from '../format.ts';
import { countOf } from '../sighting-pages.ts';
import { defaultSort, sightingList } from './sighting-list.ts';
import { dateRangeForm, dateRangeOf, isReversed, rangeParameters, type DateRange } from './date-range.ts';
import { pagesIn, routeWith, sortOf } from './list-route.ts';
import { failureNotice } from './failure.ts';

/** A burst of changes (a bulk import) asks for the numbers once, at most this often. */
const observersEveryMs = 1000;
/** How long the screen waits for the change feed to open before it reads the list anyway. */
const feedOpenWaitMs = 10_000;

export async function vesselSightingsView(ctx: Context, vesselId: number | undefined,
  query: URLSearchParams): Promise<HTMLElement> {
  const range = dateRangeOf(query);
  // The vessels' names are asked at the same time as the list and its numbers: one round trip, not two in a row.
  const vesselsRead = ctx.vessels();
  const section = h('section', { 'aria-labelledby': 'vessel-title' },
    h('h1', { id: 'vessel-title' }, t('web.vessel.title')));
  const addPicker = async () => {
    const vessels = await vesselsRead;
    const picker = h('select', { name: 'vessel' }, h('option', { value: '' }, t('web.vessel.choose')),
      ...vessels.map((v) => h('option', { value: v.vesselId }, v.vesselName ?? `#${v.vesselId}`)));
    picker.value = vesselId === undefined ? '' : String(vesselId);
    picker.addEventListener('change', () => ctx.navigate(picker.value ? `#vessel/${picker.value}` : '#vessel'));
    section.append(field(t('web.sighting.vessel'), picker).wrapper);
  };
  if (vesselId === undefined) {
    await addPicker();
    return section;
  }

  const route = `#vessel/${vesselId}`;
  const askForRange = (asked: DateRange) => {
    ctx.navigate(routeWith(route, query, { from: asked.from, to: asked.to, sort: undefined, pages: undefined }));
  };
  // A last day before the first: the form says so, and nothing is asked of the API.
  if (isReversed(range)) {
    await addPicker();
    section.append(dateRangeForm(range, askForRange));
    return section;
  }
  const ranged = Boolean(range.from || range.to);
  const filters = { vesselId, ...rangeParameters(range) };
  // With a date range the numbers are of those dates: the list's count, and the caller's among them.
  const numbers = async (): Promise<string | undefined> => {
    if (ranged) {
      const [count, mine] = await Promise.all([countOf(ctx, filters), countOf(ctx, { ...filters, mine: true })]);
      return count === undefined || mine === undefined ? undefined
        : t('web.vessel.countRange', { count: number(count), mine: number(mine) });
    }
    const { data } = await ctx.api.GET('/vessel/{id}/observers', { params: { path: { id: vesselId } } })
      .catch(() => ({ data: undefined }));
    return data && summaryText(data);
  };
  const status = h('p', { class: 'form-error', role: 'alert' });
  const reload = (notice?: string) => ctx.navigate(routeWith(route, query, {}), notice);
  const listQuery = { ...filters, sort: sortOf(query, ctx.settings.sortable) ?? defaultSort(ranged) };

  // Live: each change of this vessel's sightings updates the numbers; new rows wait behind a marker the person follows.
  const summary = h('p', { class: 'summary', 'data-testid': 'vessel-summary' });
  // Numbers asked later may come back sooner: only the newest asked is shown.
  let numbersAsked = 0;
  let numbersShown = 0;
  const showNumbers = async (): Promise<string | undefined> => {
    const asked = ++numbersAsked;
    const text = await numbers();
    if (text !== undefined && asked > numbersShown) {
      numbersShown = asked;
      summary.textContent = text;
    }
    return text;
  };
  let fresh = 0;
  const marker = h('button', { type: 'button', class: 'fresh', hidden: true, onclick: () => reload() });
  // Read out when it changes, without taking the focus.
  const live = h('div', { 'aria-live': 'polite' }, marker);
  // Said while the live connection is lost, gone once it is back (what happened meanwhile is replayed by the feed).
  const lost = h('p', { class: 'live-lost', hidden: true }, t('web.live.lost'));
  const liveState = h('div', { role: 'status' }, lost);
  // Ends with the screen, or at once when the screen could not be read.
  const following = new AbortController();
  ctx.screen.addEventListener('abort', () => following.abort(), { once: true });
  const stopped = following.signal;
  // Coalesced: however many events arrive, one request for the numbers at most every second. One that failed (the
  // network gone) is asked again, later each time, or as soon as the browser is back online.
  let refresh: ReturnType<typeof setTimeout> | undefined;
  let failedInARow = 0;
  const refreshSoon = (after = observersEveryMs) => {
    refresh ??= setTimeout(async () => {
      const next = await showNumbers();
      refresh = undefined;
      if (stopped.aborted) return;
      if (next !== undefined) {
        failedInARow = 0;
        return;
      }
      refreshSoon(Math.min(observersEveryMs * 2 ** ++failedInARow, 30_000));
    }, after);
  };
  addEventListener('online', () => {
    if (!failedInARow) return;
    clearTimeout(refresh);
    refresh = undefined;
    refreshSoon(0);
  }, { signal: stopped });
  let wasLost = false;
  // The feed opens before the list and the numbers are read: a change committed between the reads and the feed's
  // start would be announced by nobody. Its answer's headers come once the service has the stream's place in it.
  // A feed slow to open holds the screen back a little, not for ever: it says so when it is lost.
  let opened = () => {};
  const feedOpened = new Promise<void>((resolve) => {
    opened = resolve;
    setTimeout(resolve, feedOpenWaitMs);
  });
  const feed = `${location.origin}${ctx.settings.apiPath}/sighting/events?vesselId=${vesselId}`;
  void followChanges(feed, ctx.session, stopped, ({ event }) => {
    if (event === 'created') {
      fresh += 1;
      marker.textContent = t('web.vessel.fresh', { count: number(fresh) });
      marker.hidden = false;
    }
    refreshSoon();
  }, (state) => {
    opened();
    lost.hidden = state === 'connected';
    if (state === 'connected' && wasLost) refreshSoon();
    wasLost = state === 'lost';
  }).finally(opened);
  await feedOpened;
  // The session ended meanwhile (the feed's token refused): another screen says so, and this one reads nothing.
  if (ctx.screen.aborted) return section;

  const [, text, list] = await Promise.all([addPicker(), showNumbers(), sightingList(ctx, listQuery, {
    empty: t(ranged ? 'web.range.none' : 'web.vessel.none'),
    sortBy: (order) => ctx.navigate(routeWith(route, query, { sort: order, pages: undefined })),
    // The numbers follow in place (the change feed announces the delete too; both ask once, coalesced).
    onDeleted: () => refreshSoon(),
    status,
    ...pagesIn(route, query),
  })]);
  if (text === undefined || typeof list === 'string') {
    following.abort();
    section.append(failureNotice(ctx, typeof list === 'string' ? list : t('web.error.network')));
    return section;
  }

  section.append(summary, liveState, dateRangeForm(range, askForRange), live, status, list,
    ...(ctx.isWriter
      ? [h('p', {}, h('a', { href: `#record?vessel=${vesselId}`, class: 'button' }, t('web.record.title')))] : []));
  return section;
}

const summaryText = (n: Schemas['Observers']) =>
  t('web.vessel.count', { count: number(n.sightings), observers: number(n.observers), mine: number(n.mine) });
