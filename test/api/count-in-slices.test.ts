// `Prefer: count=exact` over more records than one slice of a count on PGlite: exact across slices, filters kept.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { countSlice } from '../../src/crud/read/list-count.ts';

describe(`counts over many records (${backend})`, function () {
  // Every third record is 'other': two whole slices and one record more match.
  const records = 3 * countSlice + 1;
  const matching = records - Math.floor(records / 3);
  let service: TestService;
  before(async () => {
    service = await startService();
    await bulkInsert(service, records, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select case when g % 3 = 0 then 'other' else 'counted' end, -1 from generate_series(${first}, ${last}) g`);
  });
  after(async () => { await service?.stop(); });

  it('when a filter matches more records than a slice holds, ' +
    'then X-Total-Count is exact and the page is the first one', async () => {
    const headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`, Prefer: 'count=exact' };
    const [counted, everything] = await Promise.all([
      fetch(`${service.api}/sighting?sightingMemo=counted&limit=2`, { headers }),
      fetch(`${service.api}/sighting?limit=1`, { headers }),
    ]);
    expect([counted.status, counted.headers.get('x-total-count'), counted.headers.get('preference-applied')])
      .to.deep.equal([200, String(matching), 'count=exact']);
    expect((await counted.json() as unknown[]).length).to.equal(2);
    // With the demo data's sighting and the records no filter matched.
    expect(everything.headers.get('x-total-count')).to.equal(String(records + 1));
  });
});
