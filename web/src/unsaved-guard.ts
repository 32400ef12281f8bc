// Asks before typed work is dropped: a screen with unsaved changes says so before it is left, in the page's own
// words for a link or Back, and through the browser's own question on a reload or a closed tab.
import { t } from './i18n.ts';

/** The shown screen's question "is anything typed and not saved?", while it is shown. */
let unsaved: (() => boolean) | undefined;

/** Registers the shown screen's check until `signal` (the screen's) aborts. */
export function guardUnsaved(check: () => boolean, signal: AbortSignal): void {
  unsaved = check;
  signal.addEventListener('abort', () => { if (unsaved === check) unsaved = undefined; }, { once: true });
}

/** Whether leaving now may go on: nothing unsaved, or the person said so. Once said, it is not asked again. */
export function mayLeave(): boolean {
  if (!unsaved?.()) return true;
  if (!confirm(t('web.unsaved.leave'))) return false;
  unsaved = undefined;
  return true;
}

/** What was typed has been saved: the screen's own next step leaves without asking. */
export const saved = (): void => { unsaved = undefined; };

// HTML's beforeunload: browsers show their own words here, never the page's (a page cannot word this question).
addEventListener('beforeunload', (event) => {
  if (unsaved?.()) event.preventDefault();
});
