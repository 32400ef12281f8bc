// A subscriber that resumes from an old Last-Event-ID and leaves before its catch-up read ran: its slot and the
// streams gauge are free at once, and its read is dropped, never run (contract: work for a client that left stops).
import { expect } from 'chai';
import type { Socket } from 'node:net';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';
import { neverRead } from '../support/leaving-clients.ts';
import { captureLog, type LogCapture } from '../support/log-capture.ts';
import { openEventStream } from '../support/event-stream.ts';
import type { StreamShare } from '../../src/db/stream-share.ts';

describe(`change feed: a replaying subscriber that leaves (${backend})`, function () {
  this.timeout(300_000);
  let service: TestService;
  let log: LogCapture;
  let headers: Record<string, string>;
  const share = () => service.web.app!.locals.streamShare as StreamShare;
  before(async () => {
    log = captureLog();
    // One place for streamed reads, held by a list whose client never reads (nothing lets it go during the test);
    // one stream per instance; every statement logged (the ORM's statement hook, as the statement metric counts them).
    service = await startService({
      DB_POOL_MAX: '2', STREAM_POOL_SHARE: '0.5', STREAM_IDLE_RELEASE_MS: '600000', STREAM_WRITE_TIMEOUT_MS: '600000',
      DB_ACQUIRE_TIMEOUT_MS: '600000', EVENTS_MAX_SUBSCRIBERS: '1', DB_DEBUG: 'true', LOG_LEVEL: 'info',
    }, { logDestination: log });
    headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
    // Some 6 MB of list: more than the sockets between server and client buffer, so the list stays unfinished.
    await bulkInsert(service, 60_000, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select 'held ' || g, -1 from generate_series(${first}, ${last}) g`);
  });
  after(async () => { await service?.stop(); });

  const streams = async () => (await samples(service.url, 'change_feed_streams')).get('') ?? 0;
  /** Statements of the feed's catch-up: the history of one collection after an event id. */
  const catchUpReads = (from: number) => log.lines.slice(from)
    .filter(({ msg }) => typeof msg === 'string' && msg.includes('from "record_change"')
      && msg.includes('"collection" ='));

  it('when it leaves while its catch-up read waits for a place, ' +
    'then its slot and the gauge are free and its read never runs', async () => {
    const sockets: Socket[] = [];
    try {
      const list = neverRead(service.url, { path: '/api/sighting', headers });
      sockets.push(list);
      await eventually(() => share().held === 1);
      const before = log.lines.length;
      const subscriber = neverRead(service.url,
        { path: '/api/sighting/events', headers: { ...headers, Accept: 'text/event-stream', 'Last-Event-ID': '0' } });
      sockets.push(subscriber);
      await eventually(async () => await streams() === 1);
      subscriber.destroy();
      await eventually(async () => await streams() === 0);
      // The place comes free; a whole list read after it would have found the catch-up read before it in the queue.
      list.destroy();
      await eventually(() => share().held === 0);
      const after = await fetch(`${service.api}/sighting?vesselId=-1`, { headers });
      expect(after.status).to.equal(200);
      await after.arrayBuffer();
      expect(catchUpReads(before)).to.deep.equal([]);
      // The one slot of the instance is free: a new stream is let in.
      const next = await openEventStream(service, '/sighting/events');
      try {
        expect(next.response.status).to.equal(200);
      } finally {
        next.close();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('when a replaying subscriber is let in, ' +
    'then its catch-up read runs (the statements counted are the right ones)', async () => {
    const before = log.lines.length;
    const stream = await openEventStream(service, '/sighting/events', { headers: { 'Last-Event-ID': '0' } });
    try {
      expect(stream.response.status).to.equal(200);
      await eventually(() => catchUpReads(before).length > 0);
    } finally {
      stream.close();
    }
    await eventually(async () => await streams() === 0);
  });
});
