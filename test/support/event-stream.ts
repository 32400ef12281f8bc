// A Server-Sent Events client for the change feed's tests: the events and comments read so far, and waits for more.
import type { TestService } from './service.ts';
import { streamTokenLifeMs, tokenFor, type User } from './tokens.ts';

export interface StreamEvent {
  id?: string;
  event?: string;
  data: string;
}

export interface EventStream {
  response: Response;
  events: StreamEvent[];
  comments: string[];
  /**
   * Resolves once `done` holds for what was read (checked on every chunk); rejects if the stream ends first, or
   * when `within` ms (default 60 s) have passed without it.
   */
  until(done: (stream: EventStream) => boolean, within?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A stream of `user`'s, or of the bearer of `token` (one the test made). */
export async function openEventStream(service: TestService, path: string, { user = 'alice', token,
  headers = {} }: { user?: User; token?: string; headers?: Record<string, string> } = {}): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(`${service.api}${path}`, {
    headers: { Accept: 'text/event-stream',
      Authorization: `Bearer ${token ?? await tokenFor(service.realm, user, streamTokenLifeMs)}`, ...headers },
    signal: abort.signal,
  });
  const waiters = new Set<() => void>();
  let finished = false;
  const stream: EventStream = {
    response,
    events: [],
    comments: [],
    until(done, within = 60_000) {
      return new Promise((resolve, reject) => {
        const settle = (error?: Error) => {
          waiters.delete(check);
          clearTimeout(deadline);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (done(stream)) settle();
          // The status too: a stream refused (a 401 once its token expired, a 503) ends with no event at all.
          // And the last event's kind: `token-expired` tells a stream that outlived its token.
          else if (finished) settle(new Error(`the stream (status ${response.status}) ended after `
            + `${stream.events.length} events, the last ${stream.events.at(-1)?.event ?? 'none'}`));
        };
        const late = () => settle(new Error(`not read within ${within} ms (${stream.events.length} events so far)`));
        const deadline = setTimeout(late, within);
        waiters.add(check);
        check();
      });
    },
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  stream.ended = (async () => {
    if (!response.body || response.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: StreamEvent = { data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            const [, field, value = ''] = /^([a-z]+): ?(.*)$/i.exec(line) ?? [];
            if (field === 'data') event.data += value;
            if (field === 'id' || field === 'event') event[field] = value;
            isEvent ||= field !== undefined;
          }
          if (isEvent) stream.events.push(event);
        }
        for (const check of [...waiters]) check();
      }
    } catch {
      // Aborted by close().
    } finally {
      finished = true;
      for (const check of [...waiters]) check();
    }
  })();
  return stream;
}

/** An event's data as the contract writes it. */
export const dataOf = (event: StreamEvent) =>
  JSON.parse(event.data) as { id: number; version: number; record: Record<string, unknown> | null };
