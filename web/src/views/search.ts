// Search sightings: a text the memo contains, beside the filters vessel, dates and "only mine"; one paged, sortable
// list of the matches (a query by example with the list's parameters). Everything asked lives in the address
// (`#search?q=…&vessel=…&from=…&to=…&mine=true&sort=…`): a reload, Back and a shared link show the same search.
import type { Context } from '../context.ts';
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';
import { defaultSort, sightingList } from './sighting-list.ts';
import { dateRangeOf, rangeParameters } from './date-range.ts';
import { pagesIn, routeWith, sortOf } from './list-route.ts';
import { failureNotice } from './failure.ts';

export async function searchView(ctx: Context, query: URLSearchParams): Promise<HTMLElement> {
  const asked = query.get('q');
  const range = dateRangeOf(query);
  const vesselId = Number(query.get('vessel') ?? '') || undefined;
  const mine = query.get('mine') === 'true';
  const vessels = await ctx.vessels();
  const text = h('input', { type: 'search', name: 'q', autocomplete: 'off', value: asked ?? '' });
  const vessel = h('select', { name: 'vessel' }, h('option', { value: '' }, t('web.search.anyVessel')),
    ...vessels.map((v) =>
      h('option', { value: v.vesselId, selected: v.vesselId === vesselId }, v.vesselName ?? `#${v.vesselId}`)));
  const from = h('input', { type: 'date', name: 'from', value: range.from ?? '' });
  const to = h('input', { type: 'date', name: 'to', value: range.to ?? '' });
  const own = h('input', { type: 'checkbox', name: 'mine', checked: mine });
  const form = h('form', { role: 'search', class: 'search-form' },
    field(t('web.search.label'), text).wrapper,
    h('div', { class: 'row' }, field(t('web.sighting.vessel'), vessel).wrapper,
      field(t('web.range.from'), from).wrapper, field(t('web.range.to'), to).wrapper),
    h('div', { class: 'check' }, own, h('label', { for: (own.id = 'search-mine') }, t('web.search.mine'))),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('web.action.search'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // `q` even when empty: every sighting the filters pick.
    const next = new URLSearchParams({ q: text.value });
    for (const [name, value] of [['vessel', vessel.value], ['from', from.value], ['to', to.value],
      ['mine', own.checked ? 'true' : '']]) if (value) next.set(name!, value);
    ctx.navigate(`#search?${next}`);
  });
  const results = h('div', { class: 'results' });
  // A search runs once something is asked (the address has `q`, even empty: "every sighting in these filters").
  if (asked !== null) {
    const status = h('p', { class: 'form-error', role: 'alert' });
    const ranged = Boolean(range.from || range.to);
    const list = await sightingList(ctx, { text: asked || undefined, vesselId, ...rangeParameters(range), mine,
      sort: sortOf(query, ctx.settings.sortable) ?? defaultSort(ranged) }, {
      empty: t('web.search.none'),
      sortBy: (order) => ctx.navigate(routeWith('#search', query, { sort: order, pages: undefined })),
      status,
      ...pagesIn('#search', query),
    });
    results.append(status, typeof list === 'string' ? failureNotice(ctx, list) : list);
  }
  return h('section', { 'aria-labelledby': 'search-title' },
    h('h1', { id: 'search-title' }, t('web.search.title')), form, results);
}
