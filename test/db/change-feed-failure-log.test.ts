// A stream that had started and then ends because the feed cannot serve it (its own read of the history found no place
// in the pool's share in time) is told to the operators: its answer was under way, so no error handler saw it.
import { expect } from 'chai';
import { pino } from 'pino';
import { createWithHistory } from '../../src/crud/write/row-writes.ts';
import { ChangeFeed } from '../../src/feed/change-feed.ts';
import { StreamShare } from '../../src/db/stream-share.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import { backend } from '../support/service.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { captureLog } from '../support/log-capture.ts';

describe(`a started change-feed stream the feed cannot serve (${backend})`, () => {
  let database: TestDatabase;
  before(async () => { database = await openTestDatabase(); });
  after(async () => { await database?.close(); });

  it('when its client falls behind and its own read finds no place, ' +
    'then it ends and one warning names its collection and the error', async () => {
    const log = captureLog();
    // One place, held by the test, and a short wait for it: the stream's read of the history is refused.
    const share = new StreamShare(1, 50, 1000);
    const release = await share.take();
    const feed = new ChangeFeed(database.orm, { pollMs: 3_600_000, catchUpShare: share, logger: pino({}, log) });
    await feed.start();
    try {
      const ended = Promise.withResolvers<void>();
      // Its client takes nothing: the first events it is sent leave it behind, and it reads on its own.
      const subscription = feed.subscribe({ resource: sighting, filters: {}, send: () => false, reset: () => {},
        drained: async () => true, end: () => ended.resolve() });
      await subscription.started;
      expect(log.lines).to.deep.equal([]);
      await createWithHistory(database.orm.em, sighting, sighting.values({ sightingMemo: 'left behind',
        vessel: { vesselId: -1 }, sightingTimezone: 'UTC', sightingDate: null }), 'alice');
      await ended.promise;
      expect(log.lines.map(({ level, msg, collection }) => ({ level, msg, collection }))).to.deep.equal([{ level: 40,
        msg: "change-feed stream ended: the feed could not read its history; its client resumes",
        collection: 'sighting' }]);
      expect((log.lines[0]!.err as { type?: string }).type).to.equal('ServiceUnavailable');
      subscription.unsubscribe();
    } finally {
      feed.stop();
      release();
    }
  });
});
