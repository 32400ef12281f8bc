// A stream resuming after an id the history does not know is sent `event: reset` only once its place in the feed is
// fixed: a client that reloads on the reset and then changes something is sent that change. Before, the reset went
// out before the feed's next run placed "now", and a change made in between was read as older than the stream.
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { createWithHistory } from '../../src/crud/write/row-writes.ts';
import { ChangeFeed } from '../../src/feed/change-feed.ts';
import type { ChangeEvent } from '../../src/feed/change-events.ts';
import { placingLock } from '../../src/feed/sequencer.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { eventually } from '../support/condition.ts';

describe('the change feed: a reset is sent once the stream is placed (postgresql)', () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let feed: ChangeFeed;
  before(async function () {
    // The feed's run is held by a lock another session takes: PGlite has one session.
    if (!process.env.DATABASE_URL) this.skip();
    database = await openTestDatabase();
    ({ orm } = database);
    feed = new ChangeFeed(orm, { pollMs: 3_600_000 });
    await feed.start();
  });
  after(async () => {
    feed?.stop();
    await database?.close();
  });

  const create = async (memo: string) => (await createWithHistory(orm.em, sighting,
    sighting.values({ sightingMemo: memo, vessel: { vesselId: -1 }, sightingTimezone: 'UTC', sightingDate: null }),
    'alice')).id;
  /** The feed's placing run waits for the lock this test holds. */
  const placingWaits = async () => {
    const [{ waiting }] = await orm.em.fork().getConnection().execute(`select count(*)::int as "waiting" from pg_locks
      where locktype = 'advisory' and not granted and database = (select oid from pg_database
        where datname = current_database())`) as [{ waiting: number }];
    return waiting > 0;
  };

  it('when a stream resumes after an unknown id while the feed cannot place yet, then its reset waits for the place, '
    + 'and a change made after the reset is sent', async () => {
    const seen: string[] = [];
    const events: ChangeEvent[] = [];
    let release = () => {};
    const lockHeld = Promise.withResolvers<void>();
    const holding = (orm.em.fork() as SqlEntityManager).getConnection().transactional(async (trx) => {
      await (orm.em.fork() as SqlEntityManager).getConnection()
        .execute('select pg_advisory_xact_lock(?)', [placingLock], 'run', trx);
      lockHeld.resolve();
      await new Promise<void>((resolve) => { release = resolve; });
    });
    try {
      await lockHeld.promise;
      const subscription = feed.subscribe({
        resource: sighting, filters: {},
        send: (sent) => {
          for (const event of sent) seen.push(`event ${event.recordId}`);
          events.push(...sent);
          return true;
        },
        reset: () => seen.push('reset'), drained: async () => true, end: () => {},
      }, Number.MAX_SAFE_INTEGER);
      try {
        await eventually(placingWaits, { what: 'the feed waiting to place' });
        // The feed's run has begun and cannot fix the stream's place: nothing may tell its client to reload yet.
        expect(seen).to.deep.equal([]);
        const before = await create('committed before the stream was placed');
        release();
        await subscription.started;
        expect(seen[0]).to.equal('reset');
        const after = await create('made after the reset');
        await eventually(() => events.some(({ recordId }) => recordId === after),
          { what: 'the change after the reset' });
        // What was committed before the reset is the reload's to read, not the stream's.
        expect(events.map(({ recordId }) => recordId)).to.deep.equal([after]).and.not.include(before);
      } finally {
        subscription.unsubscribe();
      }
    } finally {
      release();
      await holding;
    }
  });
});
