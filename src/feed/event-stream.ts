// GET /{resource}/events: the change feed as Server-Sent Events (contract C), one stream per request.
import type { Request, Response } from 'express';
import type { AnyResource } from '../crud/resource-descriptor.ts';
import type { Drain } from '../http/drain.ts';
import { ServiceUnavailable } from '../errors/app-errors.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { feedFilters } from '../history/record-history.ts';
import type { ChangeEvent, ChangeFeed } from './change-feed.ts';

export interface EventStreamSettings {
  feed: ChangeFeed;
  drain: Drain;
  maxSubscribers: number;
  keepAliveMs: number;
  /** Counts each event written (metrics). */
  delivered(): void;
}

/** A stream whose client reads slower than changes come is ended; it reconnects with Last-Event-ID and catches up. */
const maxBuffered = 1024 * 1024;

/** `Last-Event-ID` as an event id, or undefined (then the stream starts from now). */
function lastEventId(req: Request): number | undefined | 'unknown' {
  const text = req.get('Last-Event-ID')?.trim();
  if (!text) return undefined;
  const id = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(id) ? id : 'unknown';
}

export function eventStreams({ feed, drain, maxSubscribers, keepAliveMs, delivered }: EventStreamSettings) {
  return (resource: AnyResource) => async (req: Request, res: Response): Promise<void> => {
    if (feed.subscribers >= maxSubscribers) throw new ServiceUnavailable('error.feedFull', {}, { 'Retry-After': '5' });
    const locale = requestLocale(req);
    const filters = Object.fromEntries(feedFilters(resource).filter(([name]) => req.query[name] !== undefined).map(([name]) => [name, req.query[name]]));
    const after = lastEventId(req);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      subscription?.unsubscribe();
      forgetDrain();
      res.end();
    };
    const write = (text: string) => {
      if (ended) return;
      res.write(text);
      if (res.writableLength > maxBuffered) end();
    };
    const send = (event: ChangeEvent) => {
      write(`id: ${event.eventId}\nevent: ${event.change}\ndata: ${JSON.stringify({
        id: event.recordId, version: event.version, record: event.row && resource.listView(event.row, locale),
      })}\n\n`);
      delivered();
    };

    // Sent with the first event, or once subscribed: until then a failure (the database is down) is still a 503.
    res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    // Only once the stream has begun: until then an error can still be answered.
    const keepAlive = setInterval(() => { if (res.headersSent) write(': keep-alive\n\n'); }, keepAliveMs);
    // On shutdown the stream ends cleanly; the client reconnects (to another instance) with Last-Event-ID.
    const forgetDrain = drain.onStop(() => end());
    res.once('close', () => end());
    let subscription: { unsubscribe(): void } | undefined;
    const reset = () => write('event: reset\ndata: {}\n\n');
    try {
      subscription = await feed.subscribe({ resource, filters, send, reset }, after === 'unknown' ? Number.MAX_SAFE_INTEGER : after);
    } catch (error) {
      clearInterval(keepAlive);
      forgetDrain();
      if (!res.headersSent) throw error;
      return void res.end();
    }
    if (ended) return subscription.unsubscribe();
    if (!res.headersSent) res.flushHeaders();
  };
}
