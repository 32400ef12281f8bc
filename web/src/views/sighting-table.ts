// A table of sightings: when (a link to the record's page), where, which vessel, the memo, whether it is yours;
// edit and delete (each with its own undo) on your own, and on every row for administrators (moderation).
// Sortable columns are headers with a button: the order lives in the address (`sort=`), so it survives a reload.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { localDateTime } from '../format.ts';
import { deleteSoon, undoSeconds } from '../undoable-delete.ts';
import type { Row } from '../sighting-pages.ts';

/** `yyyy-MM-ddTHH:mm:ss.SSS` as the person's locale writes it, or "no date". */
export const when = (date: string | null | undefined): string => localDateTime(date, t('web.sighting.noDate'));

export interface TableOptions {
  /** The list's order and how to ask for another (a route change). */
  sort: string;
  sortBy(sort: string): void;
  onDeleted(id: number): void;
  status: HTMLElement;
}

export interface SightingTable { element: HTMLElement; append(rows: Row[], mine: Set<number>): HTMLElement | undefined }

/** How long what became of a delete stays on screen. */
const announcedSeconds = 10;

/** The columns a person may sort by: the list view's sortable fields that are shown. */
const sortable: Record<string, string> = { date: 'sightingDate', timezone: 'sightingTimezone' };

export function sightingTable(ctx: Context, options: TableOptions): SightingTable {
  const { status } = options;
  // Announces what became of each delete, without taking the focus; shown at the bottom of the window, where the
  // person is however far down the list.
  const announcer = h('div', { class: 'undo', role: 'status' });
  // This screen's signal: `ctx.screen` is the next screen's once the person moves on.
  const screen = ctx.screen;
  /**
   * Like a mail client: the row gives its place to a line with its own Undo, the focus on it (where the Delete button
   * was, so nothing scrolls); several deletes each keep theirs. When the delete is sent, the line goes, in place.
   */
  const remove = (id: number) => {
    const row = tbody.querySelector<HTMLTableRowElement>(`tr[data-sighting-id="${id}"]`)!;
    const undoLabel = t('web.sighting.undo', { id });
    const undoButton = h('button', { type: 'button', 'aria-label': undoLabel }, t('web.action.undo'));
    const pending = h('tr', { class: 'deleting', 'data-deleting-id': id },
      h('td', { colspan: 5 }, t('web.sighting.deleting', { id, seconds: undoSeconds }), ' ', undoButton));
    row.hidden = true;
    row.after(pending);
    const undo = deleteSoon(ctx.api, `/sighting/${id}`, ({ ok, error }) => {
      if (ok) {
        leave(pending);
        row.remove();
        announce(t('web.sighting.deleted'));
        if (!screen.aborted) options.onDeleted(id);
        return;
      }
      leave(pending);
      row.hidden = false;
      status.textContent = error ?? t('error.unknown');
    });
    undoButton.addEventListener('click', () => {
      undo();
      pending.remove();
      row.hidden = false;
      announce(t('web.sighting.restored', { id }));
      row.querySelector<HTMLElement>('a')?.focus();
    });
    undoButton.focus({ preventScroll: true });
  };
  // Read out once, then gone: a note that stayed would cover the list's last row.
  let fade: ReturnType<typeof setTimeout> | undefined;
  const announce = (text: string) => {
    announcer.replaceChildren(text);
    clearTimeout(fade);
    fade = setTimeout(() => announcer.replaceChildren(), announcedSeconds * 1000);
  };
  /** Takes a line away; the focus it held goes to the row now in its place (or the one before), not to the page. */
  const leave = (line: HTMLTableRowElement) => {
    if (line.contains(document.activeElement)) {
      type Step = 'nextElementSibling' | 'previousElementSibling';
      const visible = (row: Element | null, step: Step): HTMLElement | null => {
        while (row && (row as HTMLElement).hidden) row = row[step];
        return row as HTMLElement | null;
      };
      const next = visible(line.nextElementSibling, 'nextElementSibling')
        ?? visible(line.previousElementSibling, 'previousElementSibling');
      next?.querySelector<HTMLElement>('a, button')?.focus({ preventScroll: true });
    }
    line.remove();
  };
  const header = (key: string) => {
    const field = sortable[key];
    const label = t(`web.sighting.${key}`);
    if (!field) return h('th', { scope: 'col' }, label);
    const direction = options.sort === field ? 'ascending' : options.sort === `-${field}` ? 'descending' : undefined;
    return h('th', { scope: 'col', 'aria-sort': direction ?? null },
      h('button', { type: 'button', class: 'sort',
        onclick: () => options.sortBy(direction === 'ascending' ? `-${field}` : field) },
        label, h('span', { 'aria-hidden': 'true' },
          direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ' ↕')));
  };
  const tbody = h('tbody', {});
  const table = h('table', { class: 'sightings' },
    h('thead', {}, h('tr', {}, header('date'), header('timezone'), header('vessel'), header('memo'),
      h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('web.sighting.actions'))))),
    tbody);
  const rowOf = (row: Row, mine: boolean) => h('tr', { 'data-sighting-id': row.sightingId },
    h('td', { 'data-label': t('web.sighting.date') }, h('a', { href: `#sighting/${row.sightingId}`, 'aria-label':
      `${when(row.sightingDate)}, ${t('web.sighting.open', { id: row.sightingId })}` }, when(row.sightingDate))),
    h('td', { 'data-label': t('web.sighting.timezone') }, row.sightingTimezone ?? '–'),
    h('td', { 'data-label': t('web.sighting.vessel') }, row.vessel.vesselName ?? `#${row.vessel.vesselId}`),
    h('td', { class: 'memo', 'data-label': t('web.sighting.memo') },
      h('span', { class: 'memo-text' }, row.sightingMemo)),
    h('td', { class: 'row-actions' }, h('span', { class: 'own' },
      mine && h('span', { class: 'badge' }, t('web.sighting.yours')),
      (mine || ctx.isAdmin) && h('a', { href: `#edit/${row.sightingId}`, class: 'button',
        'aria-label': `${t('web.action.edit')} #${row.sightingId}` }, t('web.action.edit')),
      (mine || ctx.isAdmin) && h('button', {
        type: 'button', class: 'danger', 'aria-label': `${t('web.action.delete')} #${row.sightingId}`,
        onclick: () => remove(row.sightingId),
      }, t('web.action.delete')))));
  return {
    element: h('div', {}, table, announcer),
    /** Adds rows at the end; gives the first new row, where the focus may go. */
    append(rows, mine) {
      const added = rows.map((row) => rowOf(row, mine.has(row.sightingId)));
      tbody.append(...added);
      return added[0];
    },
  };
}
