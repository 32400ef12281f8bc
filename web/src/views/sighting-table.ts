// A table of sightings: when, where, which vessel, whether it is yours; edit and delete (with undo) on your own.
import type { Schemas } from '../api.ts';
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { deleteSoon, undoSeconds } from '../undoable-delete.ts';

type Row = Schemas['SightingListItem'] & { sightingMemo?: string };

/** `yyyy-MM-ddTHH:mm:ss.SSS` as the person's locale writes a date and time; a local date-time, so no zone conversion. */
export function when(date: string | null | undefined): string {
  if (!date) return t('web.sighting.noDate');
  const [y, mo, d, hh, mm, ss] = date.split(/[-T:.]/).map(Number);
  return new Date(y!, mo! - 1, d!, hh!, mm!, ss ?? 0).toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `memos`: the memo column for rows that come without one (list views), filled in as the memos arrive. */
export function sightingTable(ctx: Context, rows: Row[], mine: Set<number>, onDeleted: (id: number) => void, status: HTMLElement, memos?: Map<number, string>): HTMLElement {
  const withMemo = memos !== undefined || rows.some((row) => row.sightingMemo !== undefined);
  const undoBar = h('div', { class: 'undo', role: 'status' });
  // This screen's signal: `ctx.screen` is the next screen's once the person moves on.
  const screen = ctx.screen;
  // The row disappears at once; the delete is sent when the undo window closes.
  const remove = (id: number) => {
    const row = table.querySelector<HTMLTableRowElement>(`tr[data-sighting-id="${id}"]`)!;
    row.hidden = true;
    const undo = deleteSoon(ctx.api, id, ({ ok, error }) => {
      if (ok) {
        undoBar.replaceChildren();
        if (!screen.aborted) onDeleted(id);
        return;
      }
      row.hidden = false;
      status.textContent = error?.general ?? t('error.unknown');
    });
    const undoButton = h('button', {
      type: 'button', onclick: () => {
        undo();
        row.hidden = false;
        undoBar.replaceChildren(t('web.sighting.restored', { id }));
      },
    }, t('web.action.undo'));
    undoBar.replaceChildren(t('web.sighting.deleting', { id, seconds: undoSeconds }), ' ', undoButton);
    undoButton.focus();
  };
  const body = rows.map((row) => h('tr', { 'data-sighting-id': row.sightingId },
    h('td', { 'data-label': t('web.sighting.date') }, when(row.sightingDate)),
    h('td', { 'data-label': t('web.sighting.timezone') }, row.sightingTimezone ?? '–'),
    h('td', { 'data-label': t('web.sighting.vessel') }, row.vessel.vesselName ?? `#${row.vessel.vesselId}`),
    withMemo && h('td', { class: 'memo', 'data-label': t('web.sighting.memo') }, row.sightingMemo ?? memos?.get(row.sightingId) ?? ''),
    h('td', { class: 'row-actions' }, mine.has(row.sightingId)
      ? h('span', { class: 'own' },
        h('span', { class: 'badge' }, t('web.sighting.yours')),
        h('a', { href: `#edit/${row.sightingId}`, class: 'button', 'aria-label': `${t('web.action.edit')} #${row.sightingId}` }, t('web.action.edit')),
        h('button', {
          type: 'button', class: 'danger', 'aria-label': `${t('web.action.delete')} #${row.sightingId}`,
          onclick: () => remove(row.sightingId),
        }, t('web.action.delete')))
      : '')));
  const table = h('table', { class: 'sightings' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('web.sighting.date')), h('th', { scope: 'col' }, t('web.sighting.timezone')),
      h('th', { scope: 'col' }, t('web.sighting.vessel')), withMemo && h('th', { scope: 'col' }, t('web.sighting.memo')),
      h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('web.sighting.actions'))))),
    h('tbody', {}, ...body));
  return h('div', {}, undoBar, table);
}
