// One open change-feed stream (src/feed/event-stream.ts answers the request): what it is to the feed, to the shared
// timers, and the end that lets go of everything it holds.
import type { Request, Response } from 'express';
import type { AnyResource } from '../crud/resource-descriptor.ts';
import type { Drain } from '../http/drain.ts';
import type { Principal } from '../auth/access-rules.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import type { Locale } from '../i18n/messages.ts';
import { feedFilters } from '../crud/write/record-history.ts';
import { responseWrites, type BoundedWrites } from '../http/bounded-writes.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ChangeEvent } from './change-events.ts';
import type { StreamSlots } from './stream-slots.ts';
import type { Subscriber, Subscription } from './feed-stream.ts';
import type { StreamTimers, TimedStream } from './stream-timers.ts';

/**
 * A stream whose client has more than this waiting for it is behind: the feed stops giving it events as it reads them
 * and the stream reads the history on its own, as its client takes it (src/feed/change-feed.ts). Its buffer stays
 * about this plus one read's events, however fast changes come.
 */
const maxBuffered = 1024 * 1024;

/** What every stream of one collection shares. */
export interface StreamsShare {
  feed: ChangeFeed;
  drain: Drain;
  slots: StreamSlots;
  timers: StreamTimers;
  /** Counts the events written (metrics). */
  delivered(count: number): void;
  /** An event's text in a language. */
  textOf(event: ChangeEvent, locale: Locale): string;
}

/**
 * One open stream: the feed's subscriber, the shared timers' stream, and the end that lets go of everything it holds
 * (its slot, its timers, its place in the drain, its subscription), once, however it comes: the client leaves or stops
 * reading, the feed ends it, shutdown, the token expires. A class, whose methods every stream shares: an object of
 * closures held each of them and their contexts for every open stream. Its one function of its own is `end`, the
 * listener its answer and the drain are handed.
 */
export class EventStream implements Subscriber, TimedStream {
  /** True once the stream has let go of what it holds: nothing more is written. */
  released = false;
  readonly resource: AnyResource;
  readonly filters: Record<string, unknown>;
  readonly #principal: Principal;
  readonly #locale: Locale;
  readonly #res: Response;
  readonly #socket: Request['socket'];
  readonly #writes: BoundedWrites;
  readonly #shared: StreamsShare;
  #subscription: Subscription | undefined;

  /** The stream of `req`, whose slot has been taken for `principal`; it holds it until it ends. */
  constructor(req: Request, res: Response, principal: Principal, resource: AnyResource, shared: StreamsShare) {
    this.resource = resource;
    this.filters = requestedFilters(resource, req);
    this.#principal = principal;
    this.#locale = requestLocale(req);
    this.#res = res;
    this.#socket = req.socket;
    this.#writes = responseWrites(res);
    this.#shared = shared;
    // Each comes once at most, and `end` acts once: `on`, without a wrapper per listener held for the stream's life.
    res.on('close', this.end);
    // A client that closes its connection has gone. Connections may be half-open (lifecycle/service-ports.ts), so its
    // FIN alone would not close the answer, and an idle stream would notice only when a keep-alive write failed; but
    // the stream's request has been read, so its connection need not stay half-open while it lasts: the FIN ends the
    // socket, and the answer closes. A property (`duplex.allowHalfOpen`), not an `end` listener, which grew the
    // socket's array of them by 143 bytes a stream. A FIN already read (it came while the request was checked) is
    // acted on now, as node would have.
    this.#socket.allowHalfOpen = false;
    if (this.#socket.readableEnded) this.#socket.end();
  }

  /** Subscribes from `after` (or from now), with its keep-alive, its expiry and its end on shutdown. */
  subscribe(after: number | undefined): Subscription {
    this.#shared.timers.add(this);
    // On shutdown the stream ends cleanly; the client reconnects (to another instance) with Last-Event-ID.
    this.#shared.drain.onStop(this.end);
    return this.#subscription = this.#shared.feed.subscribe(this, after);
  }

  get expiresAt(): number {
    return this.#principal.expiresAt;
  }

  send(events: readonly ChangeEvent[]): boolean {
    if (this.released) return true;
    this.#write(events.map((event) => this.#shared.textOf(event, this.#locale)).join(''));
    this.#shared.delivered(events.length);
    return this.#res.writableLength <= maxBuffered;
  }

  reset(): void {
    this.#write('event: reset\ndata: {}\n\n');
  }

  drained(): Promise<boolean> {
    return this.#writes.drained();
  }

  /** Only once the stream has begun: until then an error can still be answered. */
  beat(): void {
    if (this.#res.headersSent) this.#write(': keep-alive\n\n');
  }

  /** A token is good until it expires, and so is the stream it opened: the client reconnects with a fresh one. */
  expire(): void {
    this.#write('event: token-expired\ndata: {}\n\n');
    this.end();
  }

  /** Lets go of what the stream holds and ends the answer. Bound to the stream: it is handed on as a listener. */
  readonly end = (): void => {
    if (this.release()) this.#res.end();
  };

  /** Lets go of what the stream holds without ending the answer; false when that was done before. */
  release(): boolean {
    if (this.released) return false;
    this.released = true;
    this.#shared.slots.free(this.#principal.subject);
    this.#shared.timers.remove(this);
    this.#shared.drain.offStop(this.end);
    this.#subscription?.unsubscribe();
    // A request that comes next on the connection is answered however its client closes.
    this.#socket.allowHalfOpen = true;
    return true;
  }

  /** Writes `text` (a client that takes nothing is cut off: src/http/bounded-writes.ts). */
  #write(text: string): void {
    if (!this.released) this.#writes.write(text);
  }
}

/** No filter: one object shared by every stream that has none. */
const noFilters: Record<string, unknown> = Object.freeze({});

/** The list parameters of the feed's filters that the request gives, with their values. */
function requestedFilters(resource: AnyResource, req: Request): Record<string, unknown> {
  const given = feedFilters(resource).filter(([name]) => req.query[name] !== undefined);
  return given.length ? Object.fromEntries(given.map(([name]) => [name, req.query[name]])) : noFilters;
}
