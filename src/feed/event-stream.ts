// GET /{resource}/events: the change feed as Server-Sent Events (docs/api.md#versions-changes-and-partial-updates,
// docs/behaviour.md#streams-and-clients-that-leave), one stream per request.
import type { Request, Response } from 'express';
import type { AnyResource } from '../crud/resource-descriptor.ts';
import type { Drain } from '../http/drain.ts';
import type { Principal } from '../auth/access-rules.ts';
import { ServiceUnavailable, TooManyRequests } from '../errors/app-errors.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import type { Locale } from '../i18n/messages.ts';
import { feedFilters } from '../crud/write/record-history.ts';
import { responseWrites } from '../http/bounded-writes.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ChangeEvent } from './change-events.ts';
import type { StreamSlots } from './stream-slots.ts';
import type { Subscription } from './feed-stream.ts';
import { streamLifetime, type StreamLifetime } from './stream-lifetime.ts';
import { StreamTimers } from './stream-timers.ts';

export interface EventStreamSettings {
  feed: ChangeFeed;
  drain: Drain;
  slots: StreamSlots;
  keepAliveMs: number;
  /** Counts the events written (metrics). */
  delivered(count: number): void;
}

/** `Last-Event-ID` as an event id, or undefined (then the stream starts from now). */
function lastEventId(req: Request): number | undefined | 'unknown' {
  const text = req.get('Last-Event-ID')?.trim();
  if (!text) return undefined;
  const id = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(id) ? id : 'unknown';
}

/** An event's Server-Sent Event text in a language, made once per language however many streams it goes to. */
function eventTexts(resource: AnyResource): (event: ChangeEvent, locale: Locale) => string {
  const texts = new WeakMap<ChangeEvent, Map<Locale, string>>();
  return (event, locale) => {
    let byLocale = texts.get(event);
    if (!byLocale) texts.set(event, byLocale = new Map());
    let text = byLocale.get(locale);
    if (text === undefined) {
      text = `id: ${event.eventId}\nevent: ${event.change}\ndata: ${JSON.stringify({
        id: event.recordId, version: event.version, record: event.row && resource.listView(event.row, locale),
      })}\n\n`;
      byLocale.set(locale, text);
    }
    return text;
  };
}

/** Each resource's `GET /{resource}/events` handler: one stream per request, holding a slot until it ends. */
export function eventStreams({ feed, drain, slots, keepAliveMs, delivered }: EventStreamSettings) {
  const timers = new StreamTimers(keepAliveMs);
  return (resource: AnyResource) => {
    const textOf = eventTexts(resource);
    return async (req: Request, res: Response): Promise<void> => {
      const principal = res.locals.principal as Principal;
      const locale = requestLocale(req);
      const filters = requestedFilters(resource, req);
      const after = lastEventId(req);
      const writes = responseWrites(res);
      // Taken last before the stream holds it: nothing in between can fail and keep the slot.
      const stream = streamLifetime(req, res, writes, takeSlot(slots, principal.subject));
      // Sent with the first event, or once started: until then a failure (the database is down) is still a 503.
      res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no' });
      holdTimers(stream, res, { drain, timers, expiresAt: principal.expiresAt });
      const subscription = feed.subscribe({
        resource,
        filters,
        send: (events) => {
          if (stream.released) return true;
          stream.write(events.map((event) => textOf(event, locale)).join(''));
          delivered(events.length);
          return !stream.behind();
        },
        reset: () => stream.write('event: reset\ndata: {}\n\n'),
        drained: () => writes.drained(),
        end: stream.end,
      }, after === 'unknown' ? Number.MAX_SAFE_INTEGER : after);
      stream.hold(subscription.unsubscribe);
      await awaitStart(stream, res, subscription);
      // From here on nothing is passed to the router: its continuation, which the request keeps as `req.next`, would
      // hold the router's state for this request (closures, arrays, about a KiB) for as long as the stream lasts.
      req.next = undefined;
      forgetToken(req);
    };
  };
}

/**
 * The bearer token was verified when the stream opened, and its expiry is the stream's timer: the request keeps no
 * copy of it for as long as the stream lasts (its header, in `headers` and `rawHeaders`: a KiB a stream, a tenth of
 * what one holds on the heap, docs/benchmarks.md).
 */
function forgetToken(req: Request): void {
  delete req.headers.authorization;
  const raw = req.rawHeaders;
  for (let name = 0; name < raw.length; name += 2) if (raw[name]!.toLowerCase() === 'authorization') raw[name + 1] = '';
}

/** The list parameters of the feed's filters that the request gives, with their values. */
function requestedFilters(resource: AnyResource, req: Request): Record<string, unknown> {
  return Object.fromEntries(feedFilters(resource).filter(([name]) => req.query[name] !== undefined)
    .map(([name]) => [name, req.query[name]]));
}

/** A slot for a stream of `caller`'s: the function returned frees it. A full instance or caller is refused. */
function takeSlot(slots: StreamSlots, caller: string): () => void {
  const freeSlot = slots.take(caller);
  if (freeSlot === 'instance-full') throw new ServiceUnavailable('error.feedFull', {}, { 'Retry-After': '5' });
  if (freeSlot === 'caller-full') throw new TooManyRequests('error.feedCallerFull', {}, { 'Retry-After': '5' });
  return freeSlot;
}

/** The stream's keep-alive, and its ends on shutdown and when its token expires. */
function holdTimers(stream: StreamLifetime, res: Response,
  { drain, timers, expiresAt }: { drain: Drain; timers: StreamTimers; expiresAt: number }): void {
  stream.hold(timers.add({
    // Only once the stream has begun: until then an error can still be answered.
    beat: () => { if (res.headersSent) stream.write(': keep-alive\n\n'); },
    // A token is good until it expires, and so is the stream it opened: the client reconnects with a fresh one.
    expire: () => {
      stream.write('event: token-expired\ndata: {}\n\n');
      stream.end();
    },
  }, expiresAt));
  // On shutdown the stream ends cleanly; the client reconnects (to another instance) with Last-Event-ID.
  stream.hold(drain.onStop(stream.end));
}

/**
 * Waits for the stream's place in the feed, then sends the headers if no event has. A start that fails before any
 * header left is thrown, to be answered as an error; after, the stream just ends.
 */
async function awaitStart(stream: StreamLifetime, res: Response, subscription: Subscription): Promise<void> {
  try {
    await subscription.started;
  } catch (error) {
    if (!res.headersSent && stream.release()) throw error;
    return stream.end();
  }
  if (!stream.released && !res.headersSent) res.flushHeaders();
}
