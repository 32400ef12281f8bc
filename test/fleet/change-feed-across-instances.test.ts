// Two instances on one PostgreSQL database: a change written through one reaches the feed's subscribers on the other.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { dataOf, openEventStream } from '../support/event-stream.ts';

describe('change feed across instances @pgbouncer', function () {
  let first: TestService;
  let second: TestService;
  before(async function () {
    if (!process.env.DATABASE_URL) return this.skip(); // PGlite belongs to one process: there is no second instance.
    first = await startService();
    second = await startService({ DATABASE_URL: first.web.config.DATABASE_URL,
      DATABASE_DIRECT_URL: first.web.config.DATABASE_DIRECT_URL });
  });
  after(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('when a sighting is created through one instance, ' +
    'then a subscriber of the other gets the event (LISTEN/NOTIFY)', async () => {
    const vesselId = await createVessel(first);
    const stream = await openEventStream(second, `/sighting/events?vesselId=${vesselId}`);
    try {
      const id = await createSighting(first, buildSighting({ vessel: { vesselId } }));
      await stream.until(({ events }) => events.length >= 1);
      expect(stream.events.map((event) => [event.event, dataOf(event).id])).to.deep.equal([['created', id]]);
    } finally {
      stream.close();
    }
  });
});
