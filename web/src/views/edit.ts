// Edit one of your sightings; a stale edit (409, someone changed it meanwhile) offers to load the current record.
import type { ErrorBody, Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { sightingForm } from './sighting-form.ts';

export async function editView(ctx: Context, id: number): Promise<HTMLElement> {
  let version = 0;
  const conflict = h('div', { class: 'conflict', role: 'alert', tabindex: -1, hidden: true });
  const load = async (): Promise<Schemas['SightingDetail'] | undefined> => {
    const { data } = await ctx.api.GET('/sighting/{id}', { params: { path: { id } } });
    if (data) { version = data.version; form.fill(data); }
    return data;
  };
  const form = await sightingForm(ctx, t('web.action.save'), async (fields) => {
    const { response, error } = await ctx.api.PUT('/sighting/{id}', { params: { path: { id } }, body: { version, ...fields } });
    if (response.status === 204) return ctx.navigate(`#vessel/${fields.vessel.vesselId}`, t('web.sighting.saved'));
    if (response.status !== 409) return form.showErrors(error as ErrorBody | undefined);
    const reload = h('button', {
      type: 'button', class: 'primary', onclick: async () => { await load(); conflict.hidden = true; form.element.querySelector('textarea')?.focus(); },
    }, t('web.action.reload'));
    conflict.replaceChildren(h('p', {}, (error as ErrorBody | undefined)?.general ?? t('error.entityChanged')), reload);
    conflict.hidden = false;
    conflict.focus();
  });
  const title = h('h1', { id: 'edit-title' }, t('web.edit.title', { id }));
  if (!await load()) return h('section', {}, title, h('p', { role: 'alert' }, t('error.entityNotFound')));
  return h('section', { 'aria-labelledby': 'edit-title' }, title, conflict, form.element);
}
