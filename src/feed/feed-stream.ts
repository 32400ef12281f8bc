// A stream's side of the change feed: what a subscriber gives the feed, the place in the feed the feed keeps for it,
// and the rule that hands it an event once, and only one it wants.
import type { AnyResource } from '../crud/resource-descriptor.ts';
import type { ChangeEvent } from './change-events.ts';

export interface Subscriber {
  readonly resource: AnyResource;
  /** Filter values (`vesselId`): an event whose scope holds each of them. */
  readonly filters: Record<string, unknown>;
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

/**
 * A subscriber's place in the feed. A class, holding its subscriber rather than a copy of it: an open stream holds one
 * object here, not a copy of every function its subscriber has.
 */
export class FeedStream implements Subscription {
  /** The last event id this stream has been given or has passed over. */
  cursor: number;
  state: StreamState = 'catching-up';
  /**
   * It resumed after an id the history does not know: its `reset` is sent when its place is fixed, not before, so a
   * client that reloads on the reset and then changes something is sent that change.
   */
  resetWhenPlaced = false;
  readonly subscriber: Subscriber;
  /** Settles `started`; let go of once it has: a stream holds its two functions only while it waits for its place. */
  #start: PromiseWithResolvers<void> | undefined;
  #started: Promise<void>;
  /** Aborted when the stream closes; made when a catch-up read first asks for its signal (most streams never read). */
  #closed: AbortController | undefined;
  /** The feed's open streams, this one among them until it unsubscribes. */
  readonly #streams: Set<FeedStream>;

  constructor(subscriber: Subscriber, cursor: number, streams: Set<FeedStream>) {
    this.subscriber = subscriber;
    this.cursor = cursor;
    this.#streams = streams;
    this.#start = Promise.withResolvers<void>();
    this.#started = this.#start.promise;
    // Nobody need wait for a start that failed: the HTTP answer reads it from `started`.
    this.#started.catch(() => {});
    streams.add(this);
  }

  get started(): Promise<void> {
    return this.#started;
  }

  /** Whether its place is fixed (`placed`): its answer has begun. */
  get isPlaced(): boolean {
    return this.#started === placedAlready;
  }

  /** Aborted once the stream has closed: its catch-up read, should it still wait for a place, is dropped unread. */
  get closedSignal(): AbortSignal {
    if (this.state === 'closed') return AbortSignal.abort(closedReason());
    return (this.#closed ??= new AbortController()).signal;
  }

  /** Its place is fixed: from now on no event it should get can be missed. */
  placed(): void {
    if (!this.#start) return;
    this.#start.resolve();
    this.#start = undefined;
    this.#started = placedAlready;
  }

  /** It could not be placed; nothing if it was. */
  failed(error: unknown): void {
    this.#start?.reject(error);
    this.#start = undefined;
  }

  unsubscribe(): void {
    this.state = 'closed';
    this.#streams.delete(this);
    // Its catch-up stops where it is; a start still awaited ends (its answer has nobody left to go to).
    const reason = closedReason();
    this.#closed?.abort(reason);
    this.failed(reason);
  }
}

/** `started` of every stream that has its place: one promise, not one held by each. */
const placedAlready = Promise.resolve();

const closedReason = () => new Error('the stream has closed');

const wants = ({ resource, filters }: Subscriber, event: ChangeEvent) => event.collection === resource.name
  && Object.entries(filters).every(([name, value]) => event.scope[name]?.includes(value));

/**
 * Gives `stream` those of `events` (in event id order) it wants and has not had, in one write; false when its client
 * has fallen behind.
 */
export function deliver(stream: FeedStream, events: readonly ChangeEvent[]): boolean {
  const last = events.at(-1);
  if (!last || last.eventId <= stream.cursor) return true;
  const wanted = events.filter((event) => event.eventId > stream.cursor && wants(stream.subscriber, event));
  stream.cursor = last.eventId;
  return wanted.length === 0 || stream.subscriber.send(wanted);
}
