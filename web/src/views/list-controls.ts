// Steering a list: its current order said in words (the default too), every order the contract allows to pick, a
// way back to the default, and the number of rows per page.
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';
import { pageSizes } from './list-route.ts';
import { number } from '../format.ts';

export interface ListControlOptions {
  sort: string;
  defaultSort: string;
  /** The contract's sortable fields. */
  sortable: string[];
  sortBy(sort: string): void;
  size: number;
  resize?(size: number): void;
  /** The page the list starts at, how many pages of `size` it has, and how to jump to one. */
  page: number;
  pages: number;
  jump?(page: number): void;
}

/** "date and time, earliest first" for `sightingDate`; a field without words of its own by its name. */
export function orderName(sort: string): string {
  const descending = sort.startsWith('-');
  const fieldName = sort.replace(/^-/, '');
  const key = `web.order.${fieldName}.${descending ? 'desc' : 'asc'}`;
  const text = t(key);
  return text === `{${key}}` ? `${fieldName} ${descending ? '↓' : '↑'}` : text;
}

export function listControls(options: ListControlOptions): HTMLElement {
  const { sort, defaultSort } = options;
  const orders = options.sortable.flatMap((name) => [name, `-${name}`]);
  const order = h('select', { name: 'sort' }, ...[...new Set([defaultSort, ...orders])].map((value) =>
    h('option', { value, selected: value === sort },
      value === defaultSort ? t('web.list.defaultNamed', { order: orderName(value) }) : orderName(value))));
  order.addEventListener('change', () => options.sortBy(order.value === defaultSort ? '' : order.value));
  const size = h('select', { name: 'size' },
    ...pageSizes.map((value) => h('option', { value, selected: value === options.size }, value)));
  size.addEventListener('change', () => options.resize?.(Number(size.value)));
  return h('div', { class: 'list-controls' },
    h('p', { class: 'order', 'data-testid': 'list-order' },
      t(sort === defaultSort ? 'web.list.orderDefault' : 'web.list.order', { order: orderName(sort) })),
    field(t('web.list.orderLabel'), order).wrapper,
    options.resize && field(t('web.list.size'), size).wrapper,
    sort !== defaultSort
      && h('button', { type: 'button', onclick: () => options.sortBy('') }, t('web.list.backToDefault')),
    options.jump && options.pages > 1 && pageJump(options as Required<ListControlOptions>));
}

/** "Page (of 100) [3] Go" and "Last page": to any page of a long list without showing every page before it. */
function pageJump({ page, pages, jump }: Required<ListControlOptions>): HTMLElement {
  const input = h('input', { type: 'number', name: 'page', min: 1, max: pages, value: page, inputMode: 'numeric' });
  const form = h('form', { class: 'page-jump', 'aria-label': t('web.list.jumpLabel') },
    field(t('web.list.page', { pages: number(pages) }), input).wrapper,
    h('button', { type: 'submit' }, t('web.list.go')),
    h('button', { type: 'button', onclick: () => jump(pages) }, t('web.list.last')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    jump(Math.min(pages, Math.max(1, Math.floor(Number(input.value)) || 1)));
  });
  return form;
}
