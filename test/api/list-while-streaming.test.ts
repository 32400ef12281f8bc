// A long list must not hold up other requests: on PGlite the database runs in the service's own process.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';

describe('a long list streaming', function () {
  let service: TestService;
  before(async () => {
    service = await startService();
    await bulkInsert(service, 30_000, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select 'bulk ' || g, -1 from generate_series(${first}, ${last}) g`);
  });
  after(async () => { await service?.stop(); });

  it('when a long list is streaming, then a read by id is answered before the list ends', async () => {
    const headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
    const list = await fetch(`${service.api}/sighting`, { headers });
    expect(list.status).to.equal(200);
    const listEnded = list.arrayBuffer().then((body) => ({ at: performance.now(), bytes: body.byteLength }));

    const started = performance.now();
    const read = await fetch(`${service.api}/sighting/-1`, { headers });
    const readBody = await read.json();
    const readAt = performance.now();
    const { at: listAt, bytes } = await listEnded;

    expect({ status: read.status, body: readBody }).to.deep.equal({ status: 200, body: {
      version: 0, sightingId: -1, sightingMemo: 'unheimlich!',
      vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone: null, sightingDate: null,
    } });
    expect(bytes).to.be.greaterThan(30000 * 60);
    // The list of 30 000 records is still streaming when the read has its answer. No bound on the read's time: a
    // loaded machine makes any figure a guess (the benchmark prints the real one: GET while the list streams).
    expect(readAt, `read took ${(readAt - started).toFixed(0)} ms, ` +
      `the list ended ${(listAt - readAt).toFixed(0)} ms after it`).to.be.lessThan(listAt);
  });
});
