// Follows the API's change feed (Server-Sent Events) with fetch, so the token goes in a header, never in a URL.
import type { Session } from './oidc.ts';

export interface ChangeEvent {
  /** `created`, `updated`, `deleted`, or `reset` (the feed lost our place: reload). */
  event: string;
  data: { id?: number; version?: number; record?: unknown };
}

/** Calls `onEvent` for each event until `signal` aborts; reconnects after a drop with `Last-Event-ID`. */
export async function followChanges(url: string, session: Session, signal: AbortSignal, onEvent: (event: ChangeEvent) => void): Promise<void> {
  let lastEventId: string | undefined;
  for (let wait = 1000; !signal.aborted; wait = Math.min(wait * 2, 30_000)) {
    try {
      const token = await session.accessToken();
      const response = await fetch(url, {
        signal,
        headers: { Accept: 'text/event-stream', ...(token && { Authorization: `Bearer ${token}` }), ...(lastEventId && { 'Last-Event-ID': lastEventId }) },
      });
      if (response.ok && response.body) {
        wait = 1000;
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
            if (fields.event) onEvent({ event: fields.event, data: JSON.parse(fields.data || '{}') as ChangeEvent['data'] });
          }
        }
      }
    } catch {
      // Aborted, or the connection dropped: the loop decides.
    }
    if (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
