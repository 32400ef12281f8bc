// "My sightings", the signed-in landing screen: the person's own sightings, newest first, of all dates or a range.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { pagedSightings } from './paged-sightings.ts';
import { dateRangeForm, rangeParameters, routeQuery, type DateRange } from './date-range.ts';

export async function mineView(ctx: Context, range: DateRange): Promise<HTMLElement> {
  const status = h('p', { class: 'form-error', role: 'alert' });
  const ranged = Boolean(range.from || range.to);
  const route = `#mine${routeQuery(range)}`;
  const list = await pagedSightings(ctx, { mine: true, ...rangeParameters(range) }, t(ranged ? 'web.range.none' : 'web.mine.none'),
    () => ctx.navigate(route, t('web.sighting.deleted')), status);
  return h('section', { 'aria-labelledby': 'mine-title' }, h('h1', { id: 'mine-title' }, t('web.mine.title')),
    ctx.isWriter && h('p', {}, h('a', { href: '#record', class: 'button primary' }, t('web.record.title'))),
    dateRangeForm(range, (asked) => ctx.navigate(`#mine${routeQuery(asked)}`)),
    status, typeof list === 'string' ? h('p', { role: 'alert' }, list) : list);
}
