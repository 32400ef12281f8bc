// The metrics of long answers: streamed reads holding the pool's share, and the change feed's streams and listener.
import { Counter, Gauge, type Registry } from 'prom-client';

export interface StreamMetrics {
  /** Reports the places of the pool's share for streamed reads, held and waited for, at every scrape. */
  addStreamShare(share: { readonly held: number; readonly waiting: number }): void;
  /** Reports the change feed's open streams at every scrape. */
  addFeed(feed: { readonly subscribers: number }): void;
  /** `count` change-feed events were written to a stream. */
  eventsDelivered(count: number): void;
  /** Reports whether the change feed's LISTEN session is connected at every scrape (PostgreSQL only). */
  addFeedListener(listening: () => boolean | undefined): void;
}

export function streamMetrics(registry: Registry): StreamMetrics {
  let share: { readonly held: number; readonly waiting: number } | undefined;
  new Gauge({
    name: 'streamed_reads',
    help: 'Streamed reads (whole lists, queries by example, the change feed\'s catch-up) holding a place of the ' +
      'pool\'s share (STREAM_POOL_SHARE), and waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'holding' }, share?.held ?? 0);
      this.set({ state: 'waiting' }, share?.waiting ?? 0);
    },
  });
  let feed: { readonly subscribers: number } | undefined;
  new Gauge({
    name: 'change_feed_streams',
    help: 'Change-feed streams (GET /{resource}/events) this instance holds open.',
    registers: [registry],
    collect() { this.set(feed?.subscribers ?? 0); },
  });
  const eventsDelivered = new Counter({ name: 'change_feed_events_delivered_total',
    help: 'Change-feed events written to streams.', registers: [registry] });
  // Made with the listener: PGlite wakes its feed in-process and has none, so the series is absent there.
  const addFeedListener = (listening: () => boolean | undefined) => {
    new Gauge({
      name: 'change_feed_listener_up',
      help: 'Whether the change feed\'s LISTEN session is connected (1) or reconnecting while the feed polls (0); ' +
        'absent on PGlite.',
      registers: [registry],
      collect() { this.set(listening() ? 1 : 0); },
    });
  };

  return {
    addStreamShare: (streamShare) => { share = streamShare; },
    addFeed: (changeFeed) => { feed = changeFeed; },
    eventsDelivered: (count) => eventsDelivered.inc(count),
    addFeedListener,
  };
}
