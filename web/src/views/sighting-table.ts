// A table of sightings: when (a link to the record's page), where, which vessel, the memo, whether it is yours;
// edit and delete (each with its own undo) on your own, and on every row for administrators (moderation).
// Sortable columns are headers with a button: the order lives in the address (`sort=`), so it survives a reload.
import type { Context } from '../context.ts';
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { localDateTime } from '../format.ts';
import { deleteSoon, onDeleteChange, pendingDelete, type DeleteWords, type PendingDelete }
  from '../undoable-delete.ts';
import { countdown } from './pending-deletes.ts';
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

/** Which field orders each column, when the contract lets the list sort by it (the vessel's: `vesselName`). */
const columnFields: Record<string, (field: string) => boolean> = {
  date: (field) => field === 'sightingDate',
  timezone: (field) => field === 'sightingTimezone',
  vessel: (field) => field.startsWith('vessel'),
};

/** What a person reads about the delete of sighting `id`. */
const sightingWords = (id: number): DeleteWords => ({
  pending: (seconds) => t('web.sighting.deleting', { id, seconds }),
  undo: () => t('web.sighting.undo', { id }),
  kept: () => t('web.sighting.restored', { id }),
  deleted: () => t('web.sighting.deleted'),
});

export function sightingTable(ctx: Context, options: TableOptions): SightingTable {
  const { status } = options;
  const screen = ctx.screen;
  const rowOfId = (id: number) => tbody.querySelector<HTMLTableRowElement>(`tr[data-sighting-id="${id}"]`);
  const lineOf = (id: number) => tbody.querySelector<HTMLTableRowElement>(`tr[data-deleting-id="${id}"]`);
  /**
   * Like a mail client: a row being deleted gives its place to a line with its own Undo (several deletes each keep
   * theirs), on whichever list shows it, this one or one the person comes back to within the window.
   */
  const showPending = (row: HTMLTableRowElement, pending: PendingDelete) => {
    const id = Number(row.getAttribute('data-sighting-id'));
    const text = h('span', { class: 'countdown' });
    countdown(text, pending);
    const undoButton = h('button', { type: 'button', 'aria-label': pending.words.undo(), onclick: () => {
      pending.undo();
      row.querySelector<HTMLElement>('a')?.focus();
    } }, t('web.action.undo'));
    row.hidden = true;
    row.after(h('tr', { class: 'deleting', 'data-deleting-id': id }, h('td', { colspan: 5 }, text, ' ', undoButton)));
    return undoButton;
  };
  // The Undo takes the focus where the Delete button was, so nothing scrolls, far down a long list included.
  const remove = (id: number) => {
    const pending = deleteSoon(ctx.api, `/sighting/${id}`, sightingWords(id));
    const line = lineOf(id) ?? showPending(rowOfId(id)!, pending);
    line.querySelector<HTMLElement>('button')?.focus({ preventScroll: true });
  };
  // Every list follows every delete, whichever screen asked for it, until its own screen is left.
  onDeleteChange((change) => {
    if (change.kind === 'tick') {
      for (const text of tbody.querySelectorAll<HTMLElement>('tr.deleting .countdown')) {
        const pending = pendingDelete(`/sighting/${Number(text.closest('tr')!.getAttribute('data-deleting-id'))}`);
        if (pending) countdown(text, pending);
      }
      return;
    }
    const [collection, id] = change.pending.path.split('/').slice(1);
    const row = collection === 'sighting' ? rowOfId(Number(id)) : null;
    if (!row) return;
    const line = lineOf(Number(id));
    if (change.kind === 'added') {
      if (!line) showPending(row, change.pending);
      return;
    }
    if (line) leave(line);
    if (change.kind === 'undone' || !change.outcome.ok) {
      row.hidden = false;
      if (change.kind === 'sent') status.textContent = change.outcome.error ?? t('error.unknown');
      return;
    }
    row.remove();
    options.onDeleted(Number(id));
  }, screen);
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
    const field = columnFields[key] && ctx.settings.sortable.find(columnFields[key]);
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
    element: h('div', {}, table),
    /** Adds rows at the end, a row whose delete is pending as pending; gives the first new row, for the focus. */
    append(rows, mine) {
      const added = rows.map((row) => rowOf(row, mine.has(row.sightingId)));
      tbody.append(...added);
      for (const row of added) {
        const pending = pendingDelete(`/sighting/${Number(row.getAttribute('data-sighting-id'))}`);
        if (pending) showPending(row, pending);
      }
      return added[0];
    },
  };
}
