// The page's one notice region for deletes: every pending delete with its countdown and its own Undo, on every
// screen, and what became of each, announced politely without taking the focus.
import { h } from '../dom.ts';
import { t } from '../i18n.ts';
import { onDeleteChange, pendingDeletes, type DeletePath, type PendingDelete } from '../undoable-delete.ts';

/** How long what became of a delete stays on screen. */
const announcedSeconds = 10;

/** Sets a text only when it differs: a countdown that did not turn is not announced again. */
export function countdown(element: HTMLElement, pending: PendingDelete): void {
  const text = pending.words.pending(pending.secondsLeft());
  if (element.textContent !== text) element.textContent = text;
}

/** The Undo of a pending delete in the region, for a screen that gives it the focus. */
export const regionUndo = (path: DeletePath): HTMLElement | null =>
  document.querySelector<HTMLElement>(`.pending-deletes li[data-pending-path="${path}"] button`);

let region: HTMLElement | undefined;

/**
 * The region, built on the first call and kept by the shell across screens (its items outlive the screen that asked
 * for the delete); each call says its title in the page's language of the moment.
 */
export function pendingDeletesRegion(): HTMLElement {
  region ??= build();
  region.querySelector('h2')!.textContent = t('web.pending.title');
  return region;
}

function build(): HTMLElement {
  const list = h('ul', { class: 'pending-list', 'aria-live': 'polite', 'aria-relevant': 'additions' });
  // Read out once, then gone: a note that stayed would cover the list's last row.
  const announcer = h('p', { class: 'undo', role: 'status' });
  const title = h('h2', { id: 'pending-deletes-title', class: 'visually-hidden' }, t('web.pending.title'));
  const section = h('section', { class: 'pending-deletes', 'aria-labelledby': title.id }, title, list, announcer);
  let fade: ReturnType<typeof setTimeout> | undefined;
  const announce = (text: string) => {
    announcer.replaceChildren(text);
    clearTimeout(fade);
    fade = setTimeout(() => announcer.replaceChildren(), announcedSeconds * 1000);
  };
  const itemOf = (pending: PendingDelete) => {
    const text = h('span', { class: 'countdown' });
    countdown(text, pending);
    return h('li', { 'data-pending-path': pending.path }, text, ' ', h('button', {
      type: 'button', 'aria-label': pending.words.undo(), onclick: () => pending.undo() }, t('web.action.undo')));
  };
  const item = (path: DeletePath) => list.querySelector<HTMLElement>(`li[data-pending-path="${path}"]`);
  const shown = () => { list.hidden = list.childElementCount === 0; };
  /** Takes an item away; the focus it held goes to the next Undo, else to the screen's heading, never to <body>. */
  const leave = (path: DeletePath) => {
    const line = item(path);
    if (!line) return;
    const held = line.contains(document.activeElement);
    const next = (line.nextElementSibling ?? line.previousElementSibling)?.querySelector<HTMLElement>('button');
    line.remove();
    shown();
    if (held && document.activeElement === document.body)
      (next ?? document.querySelector<HTMLElement>('main h1'))?.focus({ preventScroll: true });
  };
  list.append(...pendingDeletes().map(itemOf));
  shown();
  onDeleteChange((change) => {
    if (change.kind === 'tick') {
      for (const pending of pendingDeletes()) {
        const text = item(pending.path)?.querySelector<HTMLElement>('.countdown');
        if (text) countdown(text, pending);
      }
      return;
    }
    const { pending } = change;
    if (change.kind === 'added') {
      list.append(itemOf(pending));
      shown();
      return;
    }
    leave(pending.path);
    if (change.kind === 'undone') announce(pending.words.kept());
    else announce(change.outcome.ok ? pending.words.deleted() : change.outcome.error ?? t('error.unknown'));
  });
  return section;
}
