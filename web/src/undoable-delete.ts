// The page's pending deletes: each is sent only after a few seconds, so "Undo" can take it back; they belong to the
// page, not to the screen that asked, so they follow the person to every screen until they are sent or undone.
import type { Api } from './api.ts';
import { t } from './i18n.ts';

/** How long "Undo" is offered; long enough to read the notice and reach the button by keyboard. */
export const undoSeconds = 6;

export type DeletePath = `/sighting/${number}` | `/vessel/${number}`;

/** `ok`, or the API's message (a vessel still in use, a sighting already gone) in the person's words. */
export interface DeleteOutcome { ok: boolean; error?: string }

/** What a person reads about a delete; functions, so a change of language in the meantime is followed. */
export interface DeleteWords {
  /** "Sighting #121 is deleted in 5 seconds." */
  pending(seconds: number): string;
  /** The Undo button's name for assistive technology ("Undo the delete of #121"). */
  undo(): string;
  kept(): string;
  deleted(): string;
}

export interface PendingDelete {
  path: DeletePath;
  words: DeleteWords;
  /** Whole seconds until it is sent, counting down to 1. */
  secondsLeft(): number;
  undo(): void;
}

export type DeleteChange =
  | { kind: 'added'; pending: PendingDelete }
  | { kind: 'undone'; pending: PendingDelete }
  | { kind: 'sent'; pending: PendingDelete; outcome: DeleteOutcome }
  /** A second went by: countdowns show the new number. */
  | { kind: 'tick' };

const pending = new Map<DeletePath, PendingDelete>();
const listeners = new Set<(change: DeleteChange) => void>();
let ticker: ReturnType<typeof setInterval> | undefined;

const tell = (change: DeleteChange) => { for (const listener of [...listeners]) listener(change); };

// A quarter-second beat, so a countdown turns within a quarter of a second of each whole second.
const beat = () => {
  if (pending.size === 0) {
    clearInterval(ticker);
    ticker = undefined;
  } else tell({ kind: 'tick' });
};

/** Calls `listener` on every change until `signal` aborts (a screen's: gone with the screen). */
export function onDeleteChange(listener: (change: DeleteChange) => void, signal?: AbortSignal): void {
  if (signal?.aborted) return;
  listeners.add(listener);
  signal?.addEventListener('abort', () => listeners.delete(listener), { once: true });
}

export const pendingDelete = (path: DeletePath): PendingDelete | undefined => pending.get(path);
export const pendingDeletes = (): PendingDelete[] => [...pending.values()];

const sendNow: (() => void)[] = [];
// A tab closed within the window still deletes: the person saw it deleted and did not undo.
addEventListener('pagehide', () => { for (const send of [...sendNow]) send(); });

/** Schedules the delete of `path` (`/sighting/12`, `/vessel/3`); a second request for the same path is the first. */
export function deleteSoon(api: Api, path: DeletePath, words: DeleteWords): PendingDelete {
  const existing = pending.get(path);
  if (existing) return existing;
  const [, collection, id] = path.split('/') as [string, 'sighting' | 'vessel', string];
  const sendsAt = Date.now() + undoSeconds * 1000;
  const forget = () => {
    clearTimeout(timer);
    pending.delete(path);
    sendNow.splice(sendNow.indexOf(onPageHide), 1);
  };
  const send = async (keepalive: boolean) => {
    forget();
    const answer = await api.DELETE(`/${collection}/{id}`, { params: { path: { id: Number(id) } }, keepalive })
      .catch(() => undefined);
    const status = answer?.response.status;
    // Already gone (404) is what the person asked for.
    const outcome: DeleteOutcome = !answer ? { ok: false, error: t('web.error.network') }
      : { ok: status === 204 || status === 404,
        error: (answer.error as { general?: string } | undefined)?.general ?? t('error.unknown') };
    tell({ kind: 'sent', pending: entry, outcome });
  };
  const onPageHide = () => void send(true);
  const timer = setTimeout(() => void send(false), undoSeconds * 1000);
  const entry: PendingDelete = {
    path, words,
    secondsLeft: () => Math.max(1, Math.ceil((sendsAt - Date.now()) / 1000)),
    undo: () => {
      if (pending.get(path) !== entry) return;
      forget();
      tell({ kind: 'undone', pending: entry });
    },
  };
  pending.set(path, entry);
  sendNow.push(onPageHide);
  ticker ??= setInterval(beat, 250);
  tell({ kind: 'added', pending: entry });
  return entry;
}
