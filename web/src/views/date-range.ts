// A list's date range as a person picks it, by whole days ("from 1 to 30 November"), kept in the address
// (`#mine?from=2026-11-01&to=2026-11-30`) and sent as the API's half-open range on `sightingDate`.
import { field, h } from '../dom.ts';
import { t } from '../i18n.ts';

export interface DateRange {
  /** First day shown, `yyyy-MM-dd`. */
  from?: string;
  /** Last day shown, `yyyy-MM-dd` (inclusive, as a person means it). */
  to?: string;
}

const day = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (text: string | null): string | undefined =>
  (text && day.test(text) && !Number.isNaN(Date.parse(text)) ? text : undefined);

/** The range in a route's query; a day that is not one is left out. */
export function dateRangeOf(query: URLSearchParams): DateRange {
  return { from: validDay(query.get('from')), to: validDay(query.get('to')) };
}

/** A last day before the first: a slip, shown by the form, never asked of the API. */
export const isReversed = (range: DateRange): boolean => Boolean(range.from && range.to && range.to < range.from);

/** `?from=…&to=…` for a route, or '' for no range. */
export function routeQuery(range: DateRange): string {
  const query =
    new URLSearchParams(Object.entries(range).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return String(query) ? `?${query}` : '';
}

/** The list parameters: from the first day's midnight, before the midnight after the last day. */
export function rangeParameters(range: DateRange): { sightingDateFrom?: string; sightingDateBefore?: string } {
  const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    ...(range.from && { sightingDateFrom: `${range.from}T00:00` }),
    ...(range.to && { sightingDateBefore: `${dayAfter(range.to)}T00:00` }),
  };
}

/** Two day pickers and "Show"; `show` gets the range asked for (a route change, so Back returns to the last one). */
export function dateRangeForm(range: DateRange, show: (range: DateRange) => void): HTMLElement {
  const from = h('input', { type: 'date', name: 'from', value: range.from ?? '' });
  const to = h('input', { type: 'date', name: 'to', value: range.to ?? '' });
  const toField = field(t('web.range.to'), to);
  // A last day before the first is a slip, not a range with nothing in it: said by the field, on a shared link too.
  const reversed = (asked: DateRange) => {
    const wrong = isReversed(asked);
    toField.error.textContent = wrong ? t('web.range.reversed') : '';
    toField.error.hidden = !wrong;
    if (wrong) to.setAttribute('aria-invalid', 'true');
    else to.removeAttribute('aria-invalid');
    return wrong;
  };
  reversed(range);
  const form = h('form', { class: 'date-range', 'aria-label': t('web.range.label') },
    field(t('web.range.from'), from).wrapper, toField.wrapper,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, t('web.range.show')),
      (range.from || range.to) && h('button', { type: 'button', onclick: () => show({}) }, t('web.range.clear'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const asked = { from: validDay(from.value), to: validDay(to.value) };
    if (reversed(asked)) return to.focus();
    show(asked);
  });
  return form;
}
