// Edit one of your sightings. A stale save (409) keeps the person's edit: it shows their change beside the current
// version (from the history: what changed, when) and re-applies it on the current version in one action.
import type { ErrorBody, Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { sightingForm, type SightingFields, type SightingForm } from './sighting-form.ts';
import { when } from './sighting-table.ts';

type Sighting = Schemas['SightingDetail'];

export async function editView(ctx: Context, id: number): Promise<HTMLElement> {
  let version = 0;
  const conflict = h('div', { class: 'conflict', role: 'alert', tabindex: -1, hidden: true });
  const save = async (fields: SightingFields): Promise<void> => {
    const { response, error } = await ctx.api.PUT('/sighting/{id}', { params: { path: { id } }, body: { version, ...fields } });
    if (response.status === 204) return ctx.navigate(`#vessel/${fields.vessel.vesselId}`, t('web.sighting.saved'));
    if (response.status !== 409) return form.showErrors(error as ErrorBody | undefined);
    await showConflict(ctx, id, form, conflict, fields, (current) => { version = current.version; });
  };
  const form = await sightingForm(ctx, t('web.action.save'), save);
  const title = h('h1', { id: 'edit-title' }, t('web.edit.title', { id }));
  const { data } = await ctx.api.GET('/sighting/{id}', { params: { path: { id } } });
  if (!data) return h('section', {}, title, h('p', { role: 'alert' }, t('error.entityNotFound')));
  version = data.version;
  form.fill(data);
  return h('section', { 'aria-labelledby': 'edit-title' }, title, conflict, form.element);
}

/**
 * The newest history entry says what the record is now and when it changed. The person's fields stay in the form;
 * "Save my change" sends them on the current version, "Take the current version" puts that into the form instead.
 */
async function showConflict(ctx: Context, id: number, form: SightingForm, conflict: HTMLElement, mine: SightingFields, adopt: (current: Sighting) => void): Promise<void> {
  const { data } = await ctx.api.GET('/sighting/{id}/versions', { params: { path: { id }, query: { limit: 1 } } });
  const newest = data?.[0];
  const current = newest?.record;
  if (!newest || !current) {
    conflict.replaceChildren(h('p', {}, t('web.conflict.deleted')));
  } else {
    adopt(current);
    const at = new Date(newest.changedAt).toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'medium' });
    const differences = differingFields(await ctx.vessels(), mine, current);
    conflict.replaceChildren(
      h('p', {}, t('web.conflict.changed', { version: current.version, at }), newest.changedBy ? ` (${newest.changedBy})` : ''),
      h('table', { class: 'comparison' },
        h('caption', { class: 'visually-hidden' }, t('web.conflict.comparison')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('web.conflict.field')), h('th', { scope: 'col' }, t('web.conflict.yours')), h('th', { scope: 'col' }, t('web.conflict.current')))),
        h('tbody', {}, ...differences.map(([label, yours, theirs]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, yours), h('td', {}, theirs))))),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'primary', onclick: () => { conflict.hidden = true; form.element.requestSubmit(); } }, t('web.action.reapply')),
        h('button', { type: 'button', onclick: () => { form.fill(current); conflict.hidden = true; form.element.querySelector('textarea')?.focus(); } }, t('web.action.takeCurrent'))));
  }
  conflict.hidden = false;
  conflict.focus();
}

/** `[field label, the person's value, the current value]` for each field where the two differ. */
function differingFields(vessels: Schemas['VesselListItem'][], mine: SightingFields, current: Sighting): [string, string, string][] {
  const vesselName = (vesselId: number | undefined) => vessels.find((v) => v.vesselId === vesselId)?.vesselName ?? (vesselId === undefined ? '–' : `#${vesselId}`);
  const rows: [string, string, string][] = [
    [t('web.sighting.vessel'), vesselName(mine.vessel?.vesselId), vesselName(current.vessel.vesselId)],
    [t('web.sighting.date'), mine.sightingDate ? when(mine.sightingDate) : '–', current.sightingDate ? when(current.sightingDate) : '–'],
    [t('web.sighting.timezone'), mine.sightingTimezone ?? '–', current.sightingTimezone ?? '–'],
    [t('web.sighting.memo'), mine.sightingMemo, current.sightingMemo],
  ];
  return rows.filter(([, yours, theirs]) => yours !== theirs);
}
