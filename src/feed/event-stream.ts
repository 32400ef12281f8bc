// GET /{resource}/events: the change feed as Server-Sent Events (docs/api.md#versions-changes-and-partial-updates,
// docs/behaviour.md#streams-and-clients-that-leave), one stream per request.
import type { Request, Response } from 'express';
import type { AnyResource } from '../crud/resource-descriptor.ts';
import type { Drain } from '../http/drain.ts';
import type { Principal } from '../auth/access-rules.ts';
import { ServiceUnavailable, TooManyRequests } from '../errors/app-errors.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import type { Locale } from '../i18n/messages.ts';
import { feedFilters } from '../crud/record-history.ts';
import { responseWrites } from '../http/bounded-writes.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ChangeEvent } from './change-events.ts';
import type { StreamSlots } from './stream-slots.ts';

export interface EventStreamSettings {
  feed: ChangeFeed;
  drain: Drain;
  slots: StreamSlots;
  keepAliveMs: number;
  /** Counts each event written (metrics). */
  delivered(): void;
}

/** A stream whose client reads slower than changes come is ended; it reconnects with Last-Event-ID and catches up. */
const maxBuffered = 1024 * 1024;
/** setTimeout's longest wait; a later expiry is waited for in steps. */
const longestTimer = 2 ** 31 - 1;

/** `Last-Event-ID` as an event id, or undefined (then the stream starts from now). */
function lastEventId(req: Request): number | undefined | 'unknown' {
  const text = req.get('Last-Event-ID')?.trim();
  if (!text) return undefined;
  const id = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(id) ? id : 'unknown';
}

/** Calls `then` at `time` (milliseconds since the epoch); the function returned cancels it. */
function at(time: number, then: () => void): () => void {
  let timer: NodeJS.Timeout;
  const arm = () => {
    const wait = time - Date.now();
    timer = wait > longestTimer ? setTimeout(arm, longestTimer) : setTimeout(then, Math.max(0, wait));
  };
  arm();
  return () => clearTimeout(timer);
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

export function eventStreams({ feed, drain, slots, keepAliveMs, delivered }: EventStreamSettings) {
  return (resource: AnyResource) => {
    const textOf = eventTexts(resource);
    return async (req: Request, res: Response): Promise<void> => {
      const principal = res.locals.principal as Principal;
      const locale = requestLocale(req);
      const filters =
        Object.fromEntries(feedFilters(resource).filter(([name]) => req.query[name] !== undefined).map(([name]) =>
        [name, req.query[name]]));
      const after = lastEventId(req);
      const writes = responseWrites(res);
      // Taken last before the release below is in place: nothing in between can fail and keep the slot.
      const freeSlot = slots.take(principal.subject);
      if (freeSlot === 'instance-full') throw new ServiceUnavailable('error.feedFull', {}, { 'Retry-After': '5' });
      if (freeSlot === 'caller-full') throw new TooManyRequests('error.feedCallerFull', {}, { 'Retry-After': '5' });
      let released = false;
      /** Lets go of everything the stream holds: its slot, its subscription, its timers. */
      const release = () => {
        if (released) return false;
        released = true;
        freeSlot();
        subscription.unsubscribe();
        clearInterval(keepAlive);
        forgetExpiry();
        forgetDrain();
        req.socket.off('end', end);
        return true;
      };
      const end = () => {
        if (release()) res.end();
      };
      const write = (text: string) => {
        if (released) return;
        writes.write(text);
        if (res.writableLength > maxBuffered) end();
      };

      // Sent with the first event, or once started: until then a failure (the database is down) is still a 503.
      res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no' });
      // Only once the stream has begun: until then an error can still be answered.
      const keepAlive = setInterval(() => { if (res.headersSent) write(': keep-alive\n\n'); }, keepAliveMs);
      // On shutdown the stream ends cleanly; the client reconnects (to another instance) with Last-Event-ID.
      const forgetDrain = drain.onStop(end);
      // A token is good until it expires, and so is the stream it opened: the client reconnects with a fresh one.
      const forgetExpiry = at(principal.expiresAt, () => {
        write('event: token-expired\ndata: {}\n\n');
        end();
      });
      res.once('close', end);
      // A client that closes its connection has gone: connections may be half-open (src/service-ports.ts), so its FIN
      // alone does not close the answer, and an idle stream would notice only when a keep-alive write failed.
      req.socket.once('end', end);
      const subscription = feed.subscribe({
        resource,
        filters,
        send: (event) => {
          if (released) return;
          write(textOf(event, locale));
          delivered();
        },
        reset: () => write('event: reset\ndata: {}\n\n'),
        drained: () => writes.drained(),
        end,
      }, after === 'unknown' ? Number.MAX_SAFE_INTEGER : after);
      try {
        await subscription.started;
      } catch (error) {
        if (!res.headersSent && release()) throw error;
        return end();
      }
      if (!released && !res.headersSent) res.flushHeaders();
    };
  };
}
