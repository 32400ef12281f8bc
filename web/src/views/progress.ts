// Progress a person can see and hear: what is under way is marked busy at once, and a load that takes longer than
// a glance (~300 ms) says in words what it is waiting for, in a status line.
import { h } from '../dom.ts';

/** Below this a load is not announced: a line that flashes up and goes is noise, not news. */
export const slowAfterMs = 300;

/** An empty status line that a slow load fills; kept in place, so its text is announced when it comes. */
export const progressLine = (): HTMLElement => h('p', { class: 'progress', role: 'status' });

/**
 * Marks `busy` (`aria-busy`) now and, should the work still be under way after `slowAfterMs`, puts `text` in `line`.
 * The returned function ends both.
 */
export function showProgress(busy: HTMLElement, line: HTMLElement, text: string): () => void {
  busy.setAttribute('aria-busy', 'true');
  const timer = setTimeout(() => { line.textContent = text; }, slowAfterMs);
  return () => {
    clearTimeout(timer);
    busy.removeAttribute('aria-busy');
    line.textContent = '';
  };
}
