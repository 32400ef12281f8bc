// "Record a sighting": the form, then on to the vessel's sightings where the new one shows up.
import type { ErrorBody } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { sightingForm } from './sighting-form.ts';
import { guardUnsaved, saved } from '../unsaved-guard.ts';

/** `vesselId`: the vessel whose screen the person came from (`#record?vessel=…`), chosen already. */
export async function recordView(ctx: Context, vesselId?: number): Promise<HTMLElement> {
  // Said before anything is typed: the API would refuse the form with 403 only once it is sent.
  if (!ctx.isWriter) {
    return h('section', { 'aria-labelledby': 'record-title' }, h('h1', { id: 'record-title' }, t('web.record.title')),
      h('p', { role: 'note' }, t('web.record.needsWriter')));
  }
  // The screen's own signal: a save that completes after the person moved on leaves them where they are.
  const screen = ctx.screen;
  // One key per body sent: a retry after a lost answer records the sighting once (the API replays the first answer).
  let attempt: { body: string; key: string } | undefined;
  const form = await sightingForm(ctx, t('web.action.record'), async (fields) => {
    const body = JSON.stringify(fields);
    if (attempt?.body !== body) attempt = { body, key: crypto.randomUUID() };
    const answer = await ctx.api.POST('/sighting', { body: fields,
      params: { header: { 'Idempotency-Key': attempt.key } } }).catch(() => undefined);
    if (screen.aborted) return;
    if (!answer) return form.showNetworkFailure();
    const { response, error } = answer;
    if (response.status === 201) {
      saved();
      return ctx.navigate(`#vessel/${fields.vessel.vesselId}`, t('web.sighting.recorded'));
    }
    form.showErrors(error as ErrorBody | undefined);
  });
  // The rest of the form as it starts (now, the person's zone); only the vessel chosen.
  if (vesselId !== undefined) form.fill({ ...form.values(), vessel: { vesselId } } as never);
  // Unsaved once anything differs from how the form started.
  const started = JSON.stringify(form.values());
  guardUnsaved(() => JSON.stringify(form.values()) !== started, screen);
  return h('section', { 'aria-labelledby': 'record-title' },
    h('h1', { id: 'record-title' }, t('web.record.title')), form.element);
}
