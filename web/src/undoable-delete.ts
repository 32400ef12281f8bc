// A delete that is sent only after a few seconds, so "Undo" can take it back: until then nothing has changed.
import type { Api } from './api.ts';

/** How long "Undo" is offered; long enough to read the notice and reach the button by keyboard. */
export const undoSeconds = 6;

const pending = new Map<number, () => void>();
// A tab closed within the window still deletes: the person saw it deleted and did not undo.
addEventListener('pagehide', () => { for (const sendNow of [...pending.values()]) sendNow(); });

export interface DeleteOutcome { ok: boolean; error?: { general?: string } }

/** Schedules the sighting's delete; the returned function undoes it while it has not been sent. */
export function deleteSoon(api: Api, id: number, done: (outcome: DeleteOutcome) => void): () => void {
  const send = async (keepalive: boolean) => {
    clearTimeout(timer);
    pending.delete(id);
    const { response, error } = await api.DELETE('/sighting/{id}', { params: { path: { id } }, keepalive });
    done({ ok: response.status === 204 || response.status === 404, error: error as DeleteOutcome['error'] });
  };
  const timer = setTimeout(() => void send(false), undoSeconds * 1000);
  pending.set(id, () => void send(true));
  return () => {
    clearTimeout(timer);
    pending.delete(id);
  };
}
