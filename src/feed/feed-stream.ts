// A stream's side of the change feed: what a subscriber gives the feed, the place in the feed the feed keeps for it,
// and the rule that hands it an event once, and only one it wants.
import type { AnyResource } from '../crud/resource-descriptor.ts';
import type { ChangeEvent } from './change-events.ts';

export interface Subscriber {
  resource: AnyResource;
  /** Filter values (`vesselId`): an event whose scope holds each of them. */
  filters: Record<string, unknown>;
  /**
   * Writes `events` (in order, each one it wants) in one go. False when its client has fallen behind: more than a
   * bound waits in its buffer, and the feed stops giving it events from its own reads (the stream reads the history
   * on its own, as its client takes it, then joins again).
   */
  send(events: readonly ChangeEvent[]): boolean;
  /** The id it resumes after is unknown to the history: it gets events from now on, and should reload first. */
  reset(): void;
  /** Resolves true once the stream's client has taken what it was sent, false when it has gone. */
  drained(): Promise<boolean>;
  /** The feed can no longer serve it (the database failed while it caught up): the stream ends, the client resumes. */
  end(): void;
}

export interface Subscription {
  /** Settles once the stream's place in the feed is fixed: from then on no event it should get can be missed. */
  started: Promise<void>;
  unsubscribe(): void;
}

/**
 * `waking`: from now (its place is fixed by the feed's next run, after what was committed before); `catching-up`:
 * reads the history on its own; `joining`: has read it up to lately, the feed's next run gives it the rest and makes
 * it `live`; `live`: gets events from the feed's own reads.
 */
export type StreamState = 'waking' | 'catching-up' | 'joining' | 'live' | 'closed';

export interface Stream extends Subscriber {
  /** The last event id this stream has been given or has passed over. */
  cursor: number;
  state: StreamState;
  start: PromiseWithResolvers<void>;
  /** Aborted when the stream closes: its catch-up read, should it still wait for a place, is dropped unread. */
  closed: AbortController;
  /**
   * It resumed after an id the history does not know: its `reset` is sent when its place is fixed, not before, so a
   * client that reloads on the reset and then changes something is sent that change.
   */
  resetWhenPlaced?: boolean;
}

const wants = (stream: Stream, event: ChangeEvent) => event.collection === stream.resource.name
  && Object.entries(stream.filters).every(([name, value]) => event.scope[name]?.includes(value));

/**
 * Gives `stream` those of `events` (in event id order) it wants and has not had, in one write; false when its client
 * has fallen behind.
 */
export function deliver(stream: Stream, events: readonly ChangeEvent[]): boolean {
  const last = events.at(-1);
  if (!last || last.eventId <= stream.cursor) return true;
  const wanted = events.filter((event) => event.eventId > stream.cursor && wants(stream, event));
  stream.cursor = last.eventId;
  return wanted.length === 0 || stream.send(wanted);
}
