// The failover's clients: writers that count every acknowledged create with its id, and a change-feed subscriber that
// resumes with Last-Event-ID whenever its stream ends.
import { setTimeout as delay } from 'node:timers/promises';

/** One create as its writer saw it: when it was sent and answered, and the new id when it was acknowledged (201). */
export interface Write { sentAt: number; answeredAt: number; status: number | 'error'; id?: number }

/** Creates sightings one after the other until `running()` is false; each request waits at most 15 s. */
export async function writer(api: string, token: string, running: () => boolean, writes: Write[]): Promise<void> {
  for (let n = 0; running(); n++) {
    const sentAt = performance.now();
    const write: Write = await fetch(`${api}/sighting`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ sightingMemo: `failover ${n}`, vessel: { vesselId: -1 } }),
      signal: AbortSignal.timeout(15_000),
    }).then(async (response) => {
      await response.arrayBuffer();
      const id = response.status === 201 ? Number(response.headers.get('Location')!.split('/').pop()) : undefined;
      return { sentAt, answeredAt: performance.now(), status: response.status, id };
    }, () => ({ sentAt, answeredAt: performance.now(), status: 'error' as const }));
    writes.push(write);
    // A failed write is retried after a pause, as a client honouring Retry-After would (not at once, in a loop).
    if (write.status !== 201) await delay(200);
  }
}

/** What the subscriber received: each created record's id, and when each event arrived. */
export interface Feed { created: Set<number>; arrivals: number[]; reconnects: number;
  lastEventId?: string; opened?: boolean }

/**
 * Follows `/sighting/events` until `running()` is false; when the stream ends or fails it opens a new one (after
 * 250 ms) with the last id it saw, so no event may be missed (the contract's resume).
 */
export async function subscriber(api: string, token: string, running: () => boolean, feed: Feed): Promise<void> {
  const stop = new AbortController();
  const stopping = (async () => { while (running()) await delay(100); stop.abort(); })();
  while (running()) {
    try {
      const response = await fetch(`${api}/sighting/events`, {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}`,
          ...(feed.lastEventId && { 'Last-Event-ID': feed.lastEventId }) },
        signal: stop.signal,
      });
      if (response.status !== 200) throw new Error(`events: ${response.status}`);
      feed.opened = true;
      let buffered = '';
      for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
        buffered += chunk;
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop()!;
        for (const block of blocks) take(block, feed);
      }
    } catch {
      // Ended by the server, cut, or refused: resumed below.
    }
    if (!running()) break;
    feed.reconnects++;
    await delay(250);
  }
  await stopping;
}

function take(block: string, feed: Feed): void {
  const fields = Object.fromEntries(block.split('\n').filter((line) => !line.startsWith(':')).map((line) => {
    const at = line.indexOf(':');
    return [line.slice(0, at), line.slice(at + 1).trimStart()];
  }));
  if (fields.id === undefined) return;
  feed.lastEventId = fields.id;
  feed.arrivals.push(performance.now());
  if (fields.event === 'created') feed.created.add((JSON.parse(fields.data!) as { id: number }).id);
}
