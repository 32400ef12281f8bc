// The change feed costs writes nothing while no stream listens: a commit places and reads nothing (the feed's tick
// places what came, so a first stream never waits on a long backlog); a stream resuming then gets every event
// committed meanwhile, and a stream from now none of them.
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/core';
import { createWithHistory } from '../../src/crud/write/row-writes.ts';
import { ChangeFeed } from '../../src/feed/change-feed.ts';
import type { ChangeEvent } from '../../src/feed/change-events.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import { backend } from '../support/service.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { eventually } from '../support/condition.ts';

describe(`the change feed while no stream listens (${backend})`, () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let statements: string[];
  let feed: ChangeFeed;
  before(async () => {
    database = await openTestDatabase();
    ({ orm, statements } = database);
    // No tick in these tests' time: what a commit alone sets off is what they see. The last test ticks its own feed.
    feed = new ChangeFeed(orm, { pollMs: 3_600_000 });
    await feed.start();
  });
  after(async () => {
    feed?.stop();
    await database?.close();
  });

  async function create(memo: string): Promise<number> {
    const data =
      sighting.values({ sightingMemo: memo, vessel: { vesselId: -1 }, sightingTimezone: 'UTC', sightingDate: null });
    return (await createWithHistory(orm.em, sighting, data, 'alice')).id;
  }

  function listen(after?: number) {
    const events: ChangeEvent[] = [];
    let arrived = () => {};
    const subscription = feed.subscribe({
      resource: sighting, filters: {}, send: (sent) => { events.push(...sent); arrived(); return true; },
      reset: () => {}, drained: async () => true, end: () => {},
    }, after);
    const until = (count: number) => new Promise<void>((resolve) => {
      arrived = () => { if (events.length >= count) resolve(); };
      arrived();
    });
    return { events, until, subscription };
  }

  it('when records are created with no stream, ' +
    'then only their statements run, and a stream resuming from before gets each of them once', async () => {
    // The demo data's entries were placed by the migration; no stream has subscribed to this feed yet.
    const [{ newest }] = await orm.em.getConnection()
      .execute('select max("position") as "newest" from "record_change"') as [{ newest: string }];
    statements.length = 0;
    const made = [await create('asleep 1'), await create('asleep 2'), await create('asleep 3')];
    // No placing run and no read: a wake-up with no stream starts none.
    expect(statements).to.deep.equal(['with', 'with', 'with']);

    const resumed = listen(Number(newest));
    await resumed.until(3);
    resumed.subscription.unsubscribe();
    expect(resumed.events.map(({ recordId }) => recordId)).to.deep.equal(made);
    const ids = resumed.events.map(({ eventId }) => eventId);
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b))
      .and.satisfy((all: number[]) => all.every((id) => id > Number(newest)));
  });

  it('when a stream from now subscribes to a feed that slept, ' +
    'then it gets the changes made after it, none from before', async () => {
    await create('while asleep');
    const fromNow = listen();
    await fromNow.subscription.started;
    const after = await create('after the stream');
    await fromNow.until(1);
    fromNow.subscription.unsubscribe();
    expect(fromNow.events.map(({ recordId }) => recordId)).to.deep.equal([after]);
  });

  it('when records are created with no stream, ' +
    'then the next tick places them, with no stream to read them', async () => {
    const ticking = new ChangeFeed(orm, { pollMs: 20 });
    await ticking.start();
    try {
      const made = [await create('placed by a tick 1'), await create('placed by a tick 2')];
      const unplaced = async () => (await orm.em.getConnection().execute(
        `select count(*) as "count" from "record_change" where "collection" = 'sighting' ` +
          `and "record_id" in (${made.join(', ')}) and "position" is null`) as [{ count: string }])[0].count;
      await eventually(async () => Number(await unplaced()) === 0, { what: 'both records placed' });
      expect(ticking.subscribers).to.equal(0);
    } finally {
      ticking.stop();
    }
  });
});
