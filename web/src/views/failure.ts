// What a screen shows when it could not be read: a heading, what happened, and "Try again"; tried again by itself
// when the browser is back online, and after growing pauses (2 s … 30 s) while it stays on screen.
import type { Context } from '../context.ts';
import { h, uid } from '../dom.ts';
import { t } from '../i18n.ts';

/** Attempts in a row that failed: the next automatic one waits longer. Reset when a screen shows. */
let failedInARow = 0;
export const shownFine = (): void => { failedInARow = 0; };

/**
 * `heading`: `h1` for a screen that could not be shown at all, `h2` for a part of one (the list under a screen's
 * heading). "Try again" and the automatic attempts show the same screen again (same address).
 */
export function failureNotice(ctx: Context, message: string, heading: 'h1' | 'h2' = 'h2'): HTMLElement {
  const screen = ctx.screen;
  const again = () => { if (!screen.aborted) ctx.navigate(location.hash); };
  addEventListener('online', again, { signal: screen });
  const wait = Math.min(2000 * 2 ** failedInARow++, 30_000);
  const timer = setTimeout(() => { if (navigator.onLine) again(); }, wait);
  screen.addEventListener('abort', () => clearTimeout(timer));
  const title = h(heading, { id: uid('failure') }, t('web.failure.title'));
  return h('div', { class: 'failure', role: 'alert', 'aria-labelledby': title.id }, title,
    h('p', {}, message),
    h('p', { class: 'hint' }, t('web.failure.retrying')),
    h('button', { type: 'button', class: 'primary', onclick: again }, t('web.action.retry')));
}
