// "Who else saw it": one vessel's sightings, newest first a page at a time, how many people sighted it and how many
// of them are yours, and new sightings announced as they happen (the change feed) without moving the rows.
import type { Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { followChanges } from '../change-feed.ts';
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';
import { pagedSightings } from './paged-sightings.ts';
import { dateRangeForm, rangeParameters, routeQuery, type DateRange } from './date-range.ts';

export async function vesselSightingsView(ctx: Context, vesselId: number | undefined, range: DateRange): Promise<HTMLElement> {
  const vessels = await ctx.vessels();
  const picker = h('select', { name: 'vessel' }, h('option', { value: '' }, t('web.vessel.choose')),
    ...vessels.map((v) => h('option', { value: v.vesselId }, v.vesselName ?? `#${v.vesselId}`)));
  picker.value = vesselId === undefined ? '' : String(vesselId);
  picker.addEventListener('change', () => ctx.navigate(picker.value ? `#vessel/${picker.value}` : '#vessel'));
  const section = h('section', { 'aria-labelledby': 'vessel-title' }, h('h1', { id: 'vessel-title' }, t('web.vessel.title')),
    field(t('web.sighting.vessel'), picker).wrapper);
  if (vesselId === undefined) return section;

  const observers = () => ctx.api.GET('/vessel/{id}/observers', { params: { path: { id: vesselId } } });
  const status = h('p', { class: 'form-error', role: 'alert' });
  const reload = (notice?: string) => ctx.navigate(`#vessel/${vesselId}${routeQuery(range)}`, notice);
  const [numbers, list] = await Promise.all([observers(), pagedSightings(ctx, { vesselId, ...rangeParameters(range) }, t(range.from || range.to ? 'web.range.none' : 'web.vessel.none'), () => reload(t('web.sighting.deleted')), status)]);
  if (!numbers.data || typeof list === 'string') {
    section.append(h('p', { role: 'alert' }, typeof list === 'string' ? list : (numbers.error as { general?: string } | undefined)?.general ?? t('error.unknown')));
    return section;
  }
  const summaryText = (n: Schemas['Observers']) => t('web.vessel.count', { count: n.sightings, observers: n.observers, mine: n.mine });
  const summary = h('p', { class: 'summary', 'data-testid': 'vessel-summary' }, summaryText(numbers.data));

  // Live: each change of this vessel's sightings updates the numbers; new rows wait behind a marker the person follows.
  let fresh = 0;
  const marker = h('button', { type: 'button', class: 'fresh', hidden: true, onclick: () => reload() });
  // Read out when it changes, without taking the focus.
  const live = h('div', { 'aria-live': 'polite' }, marker);
  void followChanges(`${location.origin}${ctx.settings.apiPath}/sighting/events?vesselId=${vesselId}`, ctx.session, ctx.screen, async ({ event }) => {
    if (event === 'created') {
      fresh += 1;
      marker.textContent = t('web.vessel.fresh', { count: fresh });
      marker.hidden = false;
    }
    const { data } = await observers();
    if (data) summary.textContent = summaryText(data);
  });

  section.append(summary, dateRangeForm(range, (asked) => ctx.navigate(`#vessel/${vesselId}${routeQuery(asked)}`)), live, status, list,
    ...(ctx.isWriter ? [h('p', {}, h('a', { href: '#record', class: 'button' }, t('web.record.title')))] : []));
  return section;
}
