// For admins: the vessels with their names per language; create, rename, add or drop a language, delete.
import type { ErrorBody } from '../api.ts';
import type { Context } from '../context.ts';
import { field, h } from '../dom.ts';
import { showErrors, type ErrorSlots } from '../errors.ts';
import { t } from '../i18n.ts';
import { deleteSoon, onDeleteChange, pendingDelete } from '../undoable-delete.ts';
import { regionUndo } from './pending-deletes.ts';

export async function adminVesselsView(ctx: Context, vesselId: number | undefined): Promise<HTMLElement> {
  const vessels = await ctx.vessels();
  const list = h('ul', { class: 'vessel-list' }, ...vessels.map((v) => h('li', {},
    h('a', { href: `#admin/${v.vesselId}`, 'aria-current': v.vesselId === vesselId ? 'page' : null },
      v.vesselName ?? `#${v.vesselId}`))));
  const section = h('section', { 'aria-labelledby': 'admin-title' },
    h('h1', { id: 'admin-title' }, t('web.admin.title')),
    h('div', { class: 'admin' }, h('nav', { 'aria-label': t('web.admin.title') }, list,
      h('a', { href: '#admin/new', class: 'button' }, t('web.admin.new'))),
      await vesselForm(ctx, vesselId, vessels.find((v) => v.vesselId === vesselId)?.vesselName ?? undefined)));
  return section;
}

/** `shownName`: the name the list shows (the API's pick for the person's language), which the confirmation names. */
async function vesselForm(ctx: Context, vesselId: number | undefined, shownName?: string): Promise<HTMLElement> {
  let version: number | undefined;
  let names: Record<string, string> = { en: '', de: '' };
  if (vesselId !== undefined) {
    const { data } = await ctx.api.GET('/vessel/{id}', { params: { path: { id: vesselId } } });
    if (!data) return h('p', { role: 'alert' }, t('error.entityNotFound'));
    ({ version } = data);
    names = data.vesselName;
  }
  const { max } = ctx.settings.bounds.vesselName;
  const rows = h('div', { class: 'names' });
  const slots: ErrorSlots =
    { general: h('div', { class: 'form-error', role: 'alert', tabindex: -1, hidden: true }), fields: new Map() };
  const addRow = (language: string, text: string) => {
    const lang = h('input', { name: 'language', value: language, size: 6, autocapitalize: 'off', spellcheck: 'false' });
    const name = h('input', { name: 'name', value: text, maxLength: max });
    const row = h('div', { class: 'row name-row' }, field(t('web.admin.language'), lang).wrapper,
      field(t('web.admin.name'), name).wrapper,
      h('button', { type: 'button', class: 'danger', 'aria-label': t('web.admin.removeLanguage', { language }),
        onclick: () => { row.remove(); } }, '✕'));
    rows.append(row);
    return lang;
  };
  Object.entries(names).forEach(([language, text]) => addRow(language, text));
  const namesError = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const fieldset = h('fieldset', { tabindex: -1 }, h('legend', {}, t('web.admin.names')), rows, namesError,
    h('p', { class: 'hint' }, t('web.admin.bounds', { max })));

  const save = async () => {
    const entries = [...rows.querySelectorAll('.name-row')].map((row) => {
      const [lang, name] = row.querySelectorAll('input');
      return { lang: lang!, name: name!, error: row.querySelectorAll<HTMLElement>('.field-error')[1]! };
    });
    type Slot = { error: HTMLElement; control: HTMLElement };
    slots.fields = new Map<string, Slot>([['vesselName', { error: namesError, control: fieldset }],
      ...entries.map(({ lang, name, error }): [string, Slot] =>
        [`vesselName.${lang.value}`, { error, control: name }])]);
    const vesselName = Object.fromEntries(entries.map(({ lang, name }) => [lang.value, name.value]));
    const { response, error } = version === undefined
      ? await ctx.api.POST('/vessel', { body: { vesselName } })
      : await ctx.api.PUT('/vessel/{id}', { params: { path: { id: vesselId! } }, body: { version, vesselName } });
    if (response.ok) return ctx.navigate(`#admin/${vesselId ?? response.headers.get('Location')!.split('/').pop()}`,
      t('web.sighting.saved'));
    showErrors(slots, error as ErrorBody | undefined, t('error.unknown'));
  };
  const general = { ...slots, fields: new Map() };
  // Asked first, and sent only when the undo window closes: a vessel deleted by a slip of the finger is never lost.
  const confirm =
    h('div', { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'confirm-text', hidden: true, tabindex: -1 });
  const askToRemove = async () => {
    // A vessel that sightings still name cannot go (docs/behaviour.md#delete): said now, not after the undo window.
    const { data, error } = await ctx.api.GET('/sighting', { params: { query: { vesselId: vesselId!, limit: 1 } } });
    if (!data) return showErrors(general, error as ErrorBody | undefined, t('error.unknown'));
    if (data.length) return showErrors(general, { general: t('error.entityInUse') }, t('error.unknown'));
    // The name the person sees ("Tourschiff" in German), not whichever language was stored first.
    const name = shownName ?? Object.values(names)[0] ?? `#${vesselId}`;
    confirm.replaceChildren(h('p', { id: 'confirm-text' }, t('web.admin.confirmDelete', { name })),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'danger', onclick: () => remove(name) }, t('web.admin.deleteVessel')),
        h('button', { type: 'button', onclick: cancel }, t('web.action.cancel'))));
    confirm.hidden = false;
    confirm.focus();
  };
  const cancel = () => { confirm.hidden = true; deleteButton.focus(); };
  // Escape closes it, as it closes any dialog.
  confirm.addEventListener('keydown', (event) => { if (event.key === 'Escape') cancel(); });
  // The delete belongs to the page (its notice and Undo follow the person); this screen, while shown, hides the
  // form meanwhile and goes to the list once it is sent, but never pulls the person back from elsewhere.
  const screen = ctx.screen;
  const path = `/vessel/${vesselId!}` as const;
  onDeleteChange((change) => {
    if (change.kind === 'tick' || change.pending.path !== path) return;
    if (change.kind === 'added') return;
    if (change.kind === 'sent' && change.outcome.ok) return ctx.navigate('#admin');
    form.hidden = false;
    if (change.kind === 'sent') showErrors(general, { general: change.outcome.error }, t('error.unknown'));
    else if (document.activeElement === document.body || !document.activeElement) deleteButton.focus();
  }, screen);
  const remove = (name: string) => {
    confirm.hidden = true;
    form.hidden = true;
    deleteSoon(ctx.api, path, {
      pending: (seconds) => t('web.admin.deleting', { name, seconds }),
      undo: () => t('web.admin.undo', { name }),
      kept: () => t('web.admin.kept', { name }),
      deleted: () => t('web.admin.deleted'),
    });
    regionUndo(path)?.focus();
  };
  const deleteButton =
    h('button', { type: 'button', class: 'danger', onclick: () => void askToRemove() }, t('web.action.delete'));
  const form = h('form', { class: 'vessel-form', novalidate: true, 'aria-labelledby': 'vessel-form-title' },
    h('h2', { id: 'vessel-form-title' },
      vesselId === undefined ? t('web.admin.new') : t('web.admin.edit', { id: vesselId })),
    slots.general, fieldset,
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => addRow('', '').focus() }, t('web.admin.addLanguage')),
      h('button', { type: 'submit', class: 'primary' }, t('web.action.save')),
      vesselId !== undefined && deleteButton), confirm);
  form.addEventListener('submit', (event) => { event.preventDefault(); void save(); });
  // Back on a vessel whose delete is pending: the form stays hidden until the delete is undone.
  form.hidden = pendingDelete(path) !== undefined;
  return h('div', {}, form);
}
