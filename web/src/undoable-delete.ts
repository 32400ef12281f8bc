// A delete that is sent only after a few seconds, so "Undo" can take it back: until then nothing has changed.
import type { Api } from './api.ts';
import { t } from './i18n.ts';

/** How long "Undo" is offered; long enough to read the notice and reach the button by keyboard. */
export const undoSeconds = 6;

const pending = new Map<string, () => void>();
// A tab closed within the window still deletes: the person saw it deleted and did not undo.
addEventListener('pagehide', () => { for (const sendNow of [...pending.values()]) sendNow(); });

/** `ok`, or the API's message (a vessel still in use, a sighting already gone) in the person's words. */
export interface DeleteOutcome { ok: boolean; error?: string }

/**
 * Schedules the delete of `path` (`/sighting/12`, `/vessel/3`); the returned function undoes it while it has not been
 * sent.
 */
export function deleteSoon(api: Api, path: `/sighting/${number}` | `/vessel/${number}`,
  done: (outcome: DeleteOutcome) => void): () => void {
  const [, collection, id] = path.split('/') as [string, 'sighting' | 'vessel', string];
  const send = async (keepalive: boolean) => {
    clearTimeout(timer);
    pending.delete(path);
    const answer = await api.DELETE(`/${collection}/{id}`, { params: { path: { id: Number(id) } }, keepalive })
      .catch(() => undefined);
    if (!answer) return done({ ok: false, error: t('web.error.network') });
    const status = answer.response.status;
    done({ ok: status === 204 || status === 404,
      error: (answer.error as { general?: string } | undefined)?.general ?? t('error.unknown') });
  };
  const timer = setTimeout(() => void send(false), undoSeconds * 1000);
  pending.set(path, () => void send(true));
  return () => {
    clearTimeout(timer);
    pending.delete(path);
  };
}
