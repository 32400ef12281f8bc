// GET /{resource}/events: the change feed as Server-Sent Events (docs/api.md#versions-changes-and-partial-updates,
// docs/behaviour.md#streams-and-clients-that-leave), one stream per request.
import type { Request, Response } from 'express';
import type { AnyResource } from '../crud/resource-descriptor.ts';
import type { Drain } from '../http/drain.ts';
import type { Principal } from '../auth/access-rules.ts';
import { ServiceUnavailable, TooManyRequests } from '../errors/app-errors.ts';
import type { Locale } from '../i18n/messages.ts';
import type { OpenApiRequestMetadata } from '../validation/request-validator.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ChangeEvent } from './change-events.ts';
import type { StreamSlots } from './stream-slots.ts';
import type { Subscription } from './feed-stream.ts';
import { EventStream, type StreamsShare } from './open-stream.ts';
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
export function eventStreams({ keepAliveMs, ...settings }: EventStreamSettings) {
  const timers = new StreamTimers(keepAliveMs);
  return (resource: AnyResource) => {
    const shared: StreamsShare = { ...settings, timers, textOf: eventTexts(resource) };
    return async (req: Request, res: Response): Promise<void> => {
      const principal = res.locals.principal as Principal;
      const after = lastEventId(req);
      takeSlot(shared.slots, principal.subject);
      // Nothing between the slot and the stream that holds it can fail and keep the slot.
      const stream = new EventStream(req, res, principal, resource, shared);
      // Sent with the first event, or once started: until then a failure (the database is down) is still a 503.
      res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no' });
      await awaitStart(stream, res, stream.subscribe(after === 'unknown' ? Number.MAX_SAFE_INTEGER : after));
      letGoOfRequest(req, res);
    };
  };
}

/**
 * Once the stream has started, nothing more is read of its request, which the answer keeps for as long as the stream
 * lasts. Let go of (measured with `node bench/stream-heap.ts`, docs/benchmarks.md): the router's continuation
 * (`req.next`, the router's state for this request: closures, arrays, about a KiB); what the router and the validator
 * parsed of it, its query (the stream has its filters), path parameters and the validator's `openapi`; what the steps
 * before the handler left in `res.locals` but the caller, whom the request's log line names when the stream ends; and
 * the bearer token, verified when the stream opened, whose expiry is the stream's timer (its header, in `headers` and
 * `rawHeaders`, was a KiB a stream).
 */
function letGoOfRequest(req: Request, res: Response): void {
  req.next = undefined;
  req.query = noQuery;
  req.params = noParams;
  (req as Request & { openapi?: OpenApiRequestMetadata }).openapi = undefined;
  res.locals = { principal: res.locals.principal as Principal };
  // A copy without it, not `delete`, which would turn the headers object into a dictionary several times its size.
  const { authorization: _token, ...headers } = req.headers;
  req.headers = headers;
  const raw = req.rawHeaders;
  for (let name = 0; name < raw.length; name += 2) if (raw[name]!.toLowerCase() === 'authorization') raw[name + 1] = '';
}

const noQuery: Request['query'] = Object.freeze({});
const noParams: Request['params'] = Object.freeze({});

/** Takes a slot for a stream of `caller`'s. A full instance or caller is refused. */
function takeSlot(slots: StreamSlots, caller: string): void {
  const refused = slots.take(caller);
  if (refused === 'instance-full') throw new ServiceUnavailable('error.feedFull', {}, { 'Retry-After': '5' });
  if (refused === 'caller-full') throw new TooManyRequests('error.feedCallerFull', {}, { 'Retry-After': '5' });
}

/**
 * Waits for the stream's place in the feed, then sends the headers if no event has. A start that fails before any
 * header left is thrown, to be answered as an error; after, the stream just ends.
 */
async function awaitStart(stream: EventStream, res: Response, subscription: Subscription): Promise<void> {
  try {
    await subscription.started;
  } catch (error) {
    if (!res.headersSent && stream.release()) throw error;
    return stream.end();
  }
  if (!stream.released && !res.headersSent) res.flushHeaders();
}
