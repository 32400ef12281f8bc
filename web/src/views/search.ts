// Search sightings by the text of their memo: query by example (`POST /sighting/qbe`), a case-insensitive substring.
// The text lives in the address (`#search?q=…`): a reload, Back and a shared link show the same search.
import type { Context } from '../context.ts';
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';
import { showErrors } from '../errors.ts';
import { sightingTable } from './sighting-table.ts';
import { ownAmong } from '../own-sightings.ts';

export function searchView(ctx: Context, query: URLSearchParams): HTMLElement {
  const asked = query.get('q');
  const text = h('input', { type: 'search', name: 'sightingMemo', autocomplete: 'off', value: asked ?? '' });
  const memo = field(t('web.search.label'), text);
  const general = h('div', { class: 'form-error', role: 'alert', tabindex: -1, hidden: true });
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const search = async () => {
    const { data, error, response } = await ctx.api.POST('/sighting/qbe', { body: { sightingMemo: text.value } });
    if (response.status === 204) return results.replaceChildren(h('p', {}, t('web.search.none')));
    if (!data) return showErrors({ general, fields: new Map([['sightingMemo', { error: memo.error, control: text }]]) }, error as never, t('error.unknown'));
    const status = h('p', { class: 'form-error', role: 'alert' });
    results.replaceChildren(h('p', { class: 'summary' }, t('web.search.count', { count: data.length })), status,
      sightingTable(ctx, data, await ownAmong(ctx, data.map((row) => row.sightingId), {}, false), () => void search(), status));
  };
  const form = h('form', { role: 'search', class: 'search-form' }, general, memo.wrapper,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('web.action.search'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctx.navigate(`#search?${new URLSearchParams({ q: text.value })}`);
  });
  if (asked !== null) void search();
  return h('section', { 'aria-labelledby': 'search-title' }, h('h1', { id: 'search-title' }, t('web.search.title')), form, results);
}
