// Follows the API's change feed (Server-Sent Events) with fetch, so the token goes in a header, never in a URL.
import type { Session } from './oidc.ts';

export interface ChangeEvent {
  /** `created`, `updated`, `deleted`, or `reset` (the feed lost our place: reload). */
  event: string;
  data: { id?: number; version?: number; record?: unknown };
}

/** Whether the feed is open (`connected`) or being opened again after a drop (`lost`). */
export type FeedState = 'connected' | 'lost';

/** Resolves after `ms`, or at once when the browser comes back online, or when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = new AbortController();
    const end = () => { done.abort(); clearTimeout(timer); resolve(); };
    const timer = setTimeout(end, ms);
    addEventListener('online', end, { signal: done.signal });
    signal.addEventListener('abort', end, { signal: done.signal });
  });
}

/**
 * Calls `onEvent` for each event until `signal` aborts; reconnects after a drop with `Last-Event-ID`, waiting longer
 * each time (1 s … 30 s) or not at all once the network is back. A 401 (the token revoked, the provider restarted)
 * refreshes the token once; a refused refresh ends the session (the page says so) and the feed.
 */
export async function followChanges(
  url: string, session: Session, signal: AbortSignal, onEvent: (event: ChangeEvent) => void,
  onState: (state: FeedState) => void = () => {},
): Promise<void> {
  let lastEventId: string | undefined;
  let refreshed = false;
  for (let wait = 1000; !signal.aborted; wait = Math.min(wait * 2, 30_000)) {
    try {
      const token = await session.accessToken();
      const response = await fetch(url, {
        signal,
        headers: { Accept: 'text/event-stream', ...(token && { Authorization: `Bearer ${token}` }),
          ...(lastEventId && { 'Last-Event-ID': lastEventId }) },
      });
      if (response.status === 401) {
        await response.body?.cancel();
        // Never again with the rejected token: a new one, or the session is over. A new one refused too is a drop.
        if (!refreshed && await session.refresh()) {
          refreshed = true;
          continue;
        }
        if (!session.signedIn) return;
      }
      if (response.ok && response.body) {
        wait = 1000;
        refreshed = false;
        onState('connected');
        const decoder = new TextDecoder();
        let buffer = '';
        // A reader, not `for await`: not every browser iterates a ReadableStream.
        const reader = response.body.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          buffer += decoder.decode(chunk.value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const fields = Object.fromEntries(buffer.slice(0, end).split('\n').filter((line) => !line.startsWith(':'))
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]));
            buffer = buffer.slice(end + 2);
            if (fields.id) lastEventId = fields.id;
            if (fields.event)
              onEvent({ event: fields.event, data: JSON.parse(fields.data || '{}') as ChangeEvent['data'] });
          }
        }
      }
    } catch {
      // Aborted, or the connection dropped: the loop decides.
    }
    if (signal.aborted) return;
    onState('lost');
    await pause(wait, signal);
  }
}
