// Other instances hear of a commit from the instance that made it, after the commit (src/feed/commit-announcer.ts):
// no write's transaction sends a NOTIFY, which would make every write in the database commit one at a time.
import { expect } from 'chai';
import pg from 'pg';
import { backend, startService, type TestService } from '../support/service.ts';
import { createSighting } from '../support/fixtures.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';
import { signalCommit } from '../../src/db/commit-signal.ts';
import { directUrl } from '../../src/config/config.ts';

describe('commits announced after they commit @pgbouncer', function () {
  let service: TestService;
  let listener: pg.Client;
  let heard = 0;

  before(async function () {
    if (backend !== 'postgresql') return this.skip(); // PGlite belongs to one process: nobody else to tell.
    service = await startService();
    // LISTEN is a session's: straight on the server, as the service's own (src/feed/change-notifications.ts).
    listener = new pg.Client({ connectionString: directUrl(service.web.config) });
    await listener.connect();
    listener.on('notification', ({ channel }) => { if (channel === 'record_change') heard += 1; });
    await listener.query('listen record_change');
  });
  after(async () => {
    await listener?.end();
    await service?.stop();
  });

  /** The notifications sent so far, all delivered: a query on the listening session returns after them. */
  async function heardSoFar(): Promise<number> {
    await listener.query('select 1');
    return heard;
  }

  it('when a sighting is created, ' +
    'then a session listening on the database hears of it, and no trigger notifies inside the write', async () => {
    const before = await heardSoFar();
    await createSighting(service);
    await eventually(() => heard > before);
    const triggers = await query<{ name: string }>(directUrl(service.web.config)!,
      `select tgname as name from pg_trigger where tgrelid = 'record_change'::regclass and not tgisinternal`);
    expect(triggers).to.deep.equal([]);
  });

  it('when 50 commits are signalled at once, ' +
    'then one announcement is sent and one more for those made while it was under way', async () => {
    // The create above was announced once, and nothing else commits in this instance meanwhile.
    const before = await heardSoFar();
    for (let i = 0; i < 50; i++) signalCommit();
    await eventually(() => heard >= before + 2);
    // Both announcements have committed by now; a third would be a NOTIFY per commit.
    expect(await heardSoFar() - before).to.equal(2);
  });
});
