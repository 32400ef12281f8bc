// "My sightings", the signed-in landing screen: the person's own sightings, newest first, of all dates or a range.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { defaultSort, sightingList } from './sighting-list.ts';
import { dateRangeForm, dateRangeOf, isReversed, rangeParameters } from './date-range.ts';
import { pagesIn, routeWith, sortOf } from './list-route.ts';
import { failureNotice } from './failure.ts';

export async function mineView(ctx: Context, query: URLSearchParams): Promise<HTMLElement> {
  const range = dateRangeOf(query);
  const status = h('p', { class: 'form-error', role: 'alert' });
  const ranged = Boolean(range.from || range.to);
  const sort = sortOf(query, ctx.settings.sortable) ?? defaultSort(ranged);
  const list = isReversed(range) ? undefined
    : await sightingList(ctx, { mine: true, ...rangeParameters(range), sort }, {
    empty: t(ranged ? 'web.range.none' : 'web.mine.none'),
    sortBy: (order) => ctx.navigate(routeWith('#mine', query, { sort: order, pages: undefined })),
    status,
    ...pagesIn('#mine', query),
  });
  return h('section', { 'aria-labelledby': 'mine-title' }, h('h1', { id: 'mine-title' }, t('web.mine.title')),
    ctx.isWriter && h('p', {}, h('a', { href: '#record', class: 'button primary' }, t('web.record.title'))),
    dateRangeForm(range, (asked) =>
      ctx.navigate(routeWith('#mine', query, { from: asked.from, to: asked.to, sort: undefined, pages: undefined }))),
    status, typeof list === 'string' ? failureNotice(ctx, list) : list ?? null);
}
