// Edit a sighting (your own; an administrator's any). The save is a merge patch of what the person changed, stated
// on the version the form loaded (`If-Match`). When someone saved meanwhile (412), a three-way merge keeps both:
// what only they changed stays, what only the person changed goes on top, and what both changed is shown side by
// side for the person to choose; the next save is stated on their version. Nothing saved is lost unseen.
import type { ErrorBody, Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { number } from '../format.ts';
import { sightingForm, type SightingForm } from './sighting-form.ts';
import { when } from './sighting-table.ts';
import { mayChange } from '../sighting-pages.ts';
import { guardUnsaved, saved } from '../unsaved-guard.ts';
import { merge, mergePatch, valuesOf, type FieldName, type Values } from '../three-way-merge.ts';

type Sighting = Schemas['SightingDetail'];

export async function editView(ctx: Context, id: number): Promise<HTMLElement> {
  const title = h('h1', { id: 'edit-title' }, t('web.edit.title', { id }));
  const [{ data }, changeable] = await Promise.all([
    ctx.api.GET('/sighting/{id}', { params: { path: { id } } }),
    mayChange(ctx, id),
  ]);
  if (!data) return h('section', {}, title, h('p', { role: 'alert' }, t('error.entityNotFound')));
  // Opened by its address: said at once rather than by a 403 after typing.
  if (!changeable) {
    return h('section', { 'aria-labelledby': 'edit-title' }, title, h('p', { role: 'note' }, t('web.denied.notYours')),
      h('p', {}, h('a', { href: `#sighting/${id}` }, t('web.sighting.title', { id }))));
  }
  // The version the form's values were merged onto: what the next save states it changes.
  let base: { version: number; values: Values } = { version: data.version, values: valuesOf(data) };
  const conflict = h('div', { class: 'conflict', role: 'alert', tabindex: -1, hidden: true });
  const screen = ctx.screen;
  const save = async (): Promise<void> => {
    const mine = valuesOf(form.values());
    const answer = await ctx.api.PATCH('/sighting/{id}', {
      params: { path: { id }, header: { 'If-Match': `"${base.version}"` } },
      body: mergePatch(base.values, mine) as never,
      headers: { 'Content-Type': 'application/merge-patch+json' },
    }).catch(() => undefined);
    // Saved or not, a person who moved on meanwhile stays where they are.
    if (screen.aborted) return;
    if (!answer) return form.showNetworkFailure();
    const { response, error } = answer;
    if (response.status === 204) {
      conflict.hidden = true;
      saved();
      return ctx.navigate(`#sighting/${id}`, t('web.sighting.saved'), { replace: true });
    }
    if (response.status !== 412) return form.showErrors(error as ErrorBody | undefined);
    await showConflict(ctx, id, form, conflict, base.values, mine, (theirs) => { base = theirs; });
  };
  const form = await sightingForm(ctx, t('web.action.save'), save);
  form.fill(data);
  // Unsaved while the form says anything the version it stands on does not.
  guardUnsaved(() => Object.keys(mergePatch(base.values, valuesOf(form.values()))).length > 0, screen);
  return h('section', { 'aria-labelledby': 'edit-title' }, title, conflict, form.element);
}

const labels: Record<FieldName, string> = { vessel: 'web.sighting.vessel', sightingDate: 'web.sighting.date',
  sightingTimezone: 'web.sighting.timezone', sightingMemo: 'web.sighting.memo' };

const recordOf = (values: Values): Partial<Sighting> => ({
  vessel: { vesselId: values.vessel as number } as Sighting['vessel'],
  sightingDate: values.sightingDate as string | null,
  sightingTimezone: values.sightingTimezone as string | null,
  sightingMemo: values.sightingMemo as string,
});

/** Reads the version saved meanwhile (the newest history entry: the record, when and by whom) and shows the merge. */
async function showConflict(ctx: Context, id: number, form: SightingForm, conflict: HTMLElement, base: Values,
  mine: Values, rebase: (theirs: { version: number; values: Values }) => void): Promise<void> {
  const { data } = await ctx.api.GET('/sighting/{id}/versions', { params: { path: { id }, query: { limit: 1 } } });
  const newest = data?.[0];
  const current = newest?.record;
  conflict.hidden = false;
  if (!newest || !current) {
    conflict.replaceChildren(h('p', {}, t('web.conflict.deleted')));
    conflict.focus();
    return;
  }
  const theirs = valuesOf(current);
  const result = merge(base, mine, theirs);
  rebase({ version: current.version, values: theirs });
  form.fill(recordOf(result.merged));
  const vessels = await ctx.vessels();
  const shown = (name: FieldName, values: Values): string => {
    const value = values[name];
    if (name === 'vessel')
      return vessels.find((v) => v.vesselId === value)?.vesselName ?? (value === null ? '–' : `#${value}`);
    if (name === 'sightingDate') return value === null ? '–' : when(String(value));
    return value === null || value === '' ? '–' : String(value);
  };
  const list = (names: FieldName[]) => names.map((name) => `${t(labels[name])}: ${shown(name, theirs)}`).join('; ');
  const at = new Date(newest.changedAt).toLocaleString(document.documentElement.lang,
    { dateStyle: 'medium', timeStyle: 'medium' });
  // Each conflicting field: the person's value and theirs side by side, one chosen (theirs once picked).
  const choices = result.conflicts.map((name) => {
    const group = `choice-${name}`;
    const option = (side: 'mine' | 'theirs', values: Values) => h('label', { class: 'choice' },
      h('input', {
        type: 'radio', name: group, value: side, checked: side === 'mine',
        onchange: () => { result.merged[name] = values[name]!; form.fill(recordOf(result.merged)); },
      }), ` ${shown(name, values)}`);
    return h('tr', {}, h('th', { scope: 'row' }, t(labels[name])), h('td', {}, option('mine', mine)),
      h('td', {}, option('theirs', theirs)));
  });
  conflict.replaceChildren(...([
    h('p', {}, t('web.conflict.changed', { version: number(current.version), at }),
      newest.changedBy ? ` (${newest.changedBy})` : ''),
    result.theirs.length > 0
      && h('p', { 'data-testid': 'kept-theirs' }, t('web.conflict.keptTheirs', { fields: list(result.theirs) })),
    result.mine.length > 0 && h('p', { 'data-testid': 'kept-mine' },
      t('web.conflict.keptMine', { fields: result.mine.map((name) => t(labels[name])).join(', ') })),
    choices.length > 0 && h('table', { class: 'comparison' },
      h('caption', {}, t('web.conflict.choose')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('web.conflict.field')),
        h('th', { scope: 'col' }, t('web.conflict.yours')), h('th', { scope: 'col' }, t('web.conflict.current')))),
      h('tbody', {}, ...choices)),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: () => form.element.requestSubmit() },
        t('web.action.saveMerged')),
      h('button', { type: 'button', onclick: () => { form.fill(current); conflict.hidden = true;
        form.element.querySelector('textarea')?.focus(); } }, t('web.action.takeCurrent')))] as (HTMLElement | false)[])
    .filter((part): part is HTMLElement => part !== false));
  conflict.focus();
}
