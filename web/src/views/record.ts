// "Record a sighting": the form, then on to the vessel's sightings where the new one shows up.
import type { ErrorBody } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { sightingForm } from './sighting-form.ts';

/** `vesselId`: the vessel whose screen the person came from (`#record?vessel=…`), chosen already. */
export async function recordView(ctx: Context, vesselId?: number): Promise<HTMLElement> {
  // Said before anything is typed: the API would refuse the form with 403 only once it is sent.
  if (!ctx.isWriter) {
    return h('section', { 'aria-labelledby': 'record-title' }, h('h1', { id: 'record-title' }, t('web.record.title')),
      h('p', { role: 'note' }, t('web.record.needsWriter')));
  }
  const form = await sightingForm(ctx, t('web.action.record'), async (fields) => {
    const { response, error } = await ctx.api.POST('/sighting', { body: fields });
    if (response.status === 201) return ctx.navigate(`#vessel/${fields.vessel.vesselId}`, t('web.sighting.recorded'));
    form.showErrors(error as ErrorBody | undefined);
  });
  // The rest of the form as it starts (now, the person's zone); only the vessel chosen.
  if (vesselId !== undefined) form.fill({ ...form.values(), vessel: { vesselId } } as never);
  return h('section', { 'aria-labelledby': 'record-title' },
    h('h1', { id: 'record-title' }, t('web.record.title')), form.element);
}
