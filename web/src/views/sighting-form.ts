// The sighting form used to record and to edit: vessel, date-time, time zone and memo, with the API's errors by field.
import type { ErrorBody, Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { field, h } from '../dom.ts';
import { showErrors, clearErrors, type ErrorSlots } from '../errors.ts';
import { t } from '../i18n.ts';

export type SightingFields = Pick<Schemas['SightingCreate'], 'sightingMemo' | 'vessel' | 'sightingTimezone' | 'sightingDate'>;

export interface SightingForm {
  element: HTMLFormElement;
  fill(values: Partial<Schemas['SightingDetail']>): void;
  showErrors(body: ErrorBody | undefined): void;
}

export async function sightingForm(ctx: Context, submitLabel: string, onSubmit: (fields: SightingFields) => Promise<void>): Promise<SightingForm> {
  const [vessels, zones] = await Promise.all([ctx.vessels(), ctx.timezones()]);
  const { min, max } = ctx.settings.bounds.sightingMemo;

  const vessel = h('select', { name: 'vessel', required: true },
    ...vessels.map((v) => h('option', { value: v.vesselId }, v.vesselName ?? `#${v.vesselId}`)));
  // Seconds are optional in the contract; step=1 lets the picker set them.
  const date = h('input', { type: 'datetime-local', name: 'sightingDate', step: 1 });
  const zone = h('select', { name: 'sightingTimezone' }, h('option', { value: '' }, t('web.sighting.noTimezone')),
    ...zones.map((name) => h('option', { value: name }, name)));
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zones.includes(here)) zone.value = here;
  const memo = h('textarea', { name: 'sightingMemo', rows: 4, minLength: min, maxLength: max, required: true });
  const counter = h('span', { class: 'counter', 'aria-live': 'polite' });
  const count = () => { counter.textContent = t('web.memo.count', { count: memo.value.length, max }); };
  memo.addEventListener('input', count);
  count();

  const fields = {
    vessel: field(t('web.sighting.vessel'), vessel),
    sightingDate: field(t('web.sighting.date'), date),
    sightingTimezone: field(t('web.sighting.timezone'), zone),
    sightingMemo: field(t('web.sighting.memo'), memo, h('span', {}, t('web.memo.bounds', { min, max }), ' ', counter)),
  };
  const general = h('div', { class: 'form-error', role: 'alert', tabindex: -1, hidden: true });
  const slots: ErrorSlots = {
    general,
    fields: new Map(Object.entries(fields).map(([path, { error }]) => [path, {
      error, control: { vessel, sightingDate: date, sightingTimezone: zone, sightingMemo: memo }[path]!,
    }])),
  };
  const submit = h('button', { type: 'submit', class: 'primary' }, submitLabel);

  // novalidate: the API's localized messages appear next to the fields, one source for every rule.
  const element = h('form', { class: 'sighting-form', novalidate: true },
    general, fields.vessel.wrapper, h('div', { class: 'row' }, fields.sightingDate.wrapper, fields.sightingTimezone.wrapper),
    fields.sightingMemo.wrapper, h('div', { class: 'actions' }, submit));
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(slots);
    submit.disabled = true;
    onSubmit({
      sightingMemo: memo.value,
      vessel: { vesselId: Number(vessel.value) },
      sightingTimezone: zone.value || null,
      sightingDate: date.value || null,
    }).finally(() => { submit.disabled = false; });
  });

  return {
    element,
    fill(values) {
      if (values.vessel) vessel.value = String(values.vessel.vesselId);
      date.value = values.sightingDate?.slice(0, 19) ?? '';
      // A fixed offset such as +02:00 is valid but not in the collection: offer it as it is.
      if (values.sightingTimezone && !zones.includes(values.sightingTimezone)) zone.append(h('option', { value: values.sightingTimezone }, values.sightingTimezone));
      zone.value = values.sightingTimezone ?? '';
      memo.value = values.sightingMemo ?? '';
      count();
    },
    showErrors: (body) => showErrors(slots, body, t('error.unknown')),
  };
}
