// The sighting form used to record and to edit: vessel, date-time, time zone and memo, with the API's errors by field.
import type { ErrorBody, Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { field, h, uid } from '../dom.ts';
import { showErrors, clearErrors, type ErrorSlots } from '../errors.ts';
import { t } from '../i18n.ts';
import { progressLine, showProgress } from './progress.ts';

export type SightingFields =
  Pick<Schemas['SightingCreate'], 'sightingMemo' | 'vessel' | 'sightingTimezone' | 'sightingDate'>;

export interface SightingForm {
  element: HTMLFormElement;
  fill(values: Partial<Schemas['SightingDetail']>): void;
  /** What the form holds now, as it would be sent. */
  values(): SightingFields;
  showErrors(body: ErrorBody | undefined): void;
  /** Says that nothing reached the registry, the form kept as typed, with "Try again" (which sends it again). */
  showNetworkFailure(): void;
}

export async function sightingForm(ctx: Context, submitLabel: string,
  onSubmit: (fields: SightingFields) => Promise<void>): Promise<SightingForm> {
  const [vessels, zones] = await Promise.all([ctx.vessels(), ctx.timezones()]);
  const { min, max } = ctx.settings.bounds.sightingMemo;

  // No vessel chosen until the person chooses one: a silent default records the wrong vessel.
  const vessel = h('select', { name: 'vessel', required: true },
    h('option', { value: '' }, t('web.sighting.chooseVessel')),
    ...vessels.map((v) => h('option', { value: v.vesselId }, v.vesselName ?? `#${v.vesselId}`)));
  // Seconds are optional in the contract; step=1 lets the picker set them. A new sighting is one seen just now.
  const date = h('input', { type: 'datetime-local', name: 'sightingDate', step: 1, value: localNow() });
  // 420 zones are found by typing (the list filters as one types), not by scrolling.
  const zoneList = h('datalist', { id: uid('zones') }, ...zones.map((name) => h('option', { value: name })));
  const zone = h('input', { name: 'sightingTimezone', list: zoneList.id, autocomplete: 'off', spellcheck: false,
    maxLength: 64, placeholder: t('web.sighting.noTimezone') });
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
    sightingTimezone: field(t('web.sighting.timezone'), zone, t('web.sighting.timezoneHint')),
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
  const sending = progressLine();

  // novalidate: the API's localized messages appear next to the fields, one source for every rule.
  const element = h('form', { class: 'sighting-form', novalidate: true },
    general, fields.vessel.wrapper,
    h('div', { class: 'row' }, fields.sightingDate.wrapper, fields.sightingTimezone.wrapper),
    fields.sightingMemo.wrapper, zoneList, h('div', { class: 'actions' }, submit, sending));
  const values = (): SightingFields => ({
    sightingMemo: memo.value,
    // Left out until one is chosen, so the API's own "required" message names the field.
    ...(vessel.value ? { vessel: { vesselId: Number(vessel.value) } } : {}),
    sightingTimezone: zone.value.trim() || null,
    sightingDate: date.value || null,
  }) as SightingFields;
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(slots);
    submit.disabled = true;
    const sent = showProgress(element, sending, t('web.sending'));
    onSubmit(values()).finally(() => {
      sent();
      submit.disabled = false;
    });
  });

  return {
    element,
    fill(record) {
      if (record.vessel) vessel.value = String(record.vessel.vesselId);
      date.value = record.sightingDate?.slice(0, 19) ?? '';
      zone.value = record.sightingTimezone ?? '';
      memo.value = record.sightingMemo ?? '';
      count();
    },
    values,
    showErrors: (body) => showErrors(slots, body, t('error.unknown')),
    showNetworkFailure() {
      showErrors(slots, { general: t('web.error.networkKept') }, t('error.unknown'));
      general.append(h('button', { type: 'button', class: 'primary', onclick: () => element.requestSubmit() },
        t('web.action.retry')));
    },
  };
}

/** Now as `yyyy-MM-ddTHH:mm` on the person's clock: the value a datetime-local field takes. */
function localNow(): string {
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
  return `${day}T${two(now.getHours())}:${two(now.getMinutes())}`;
}
