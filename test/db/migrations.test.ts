// The migrations found in src/db/migrations/: recorded under the names earlier releases recorded, the time zones seeded
// once.
import { expect } from 'chai';
import { backend, sharedService, type TestService } from '../support/service.ts';

describe(`migrations (${backend})`, () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });
  const query = (sql: string): Promise<Record<string, unknown>[]> => service.web.orm.em.getConnection().execute(sql);

  it('when the service has migrated a new database, then the first two are recorded as the hand-listed ones were, ' +
    'so a database they migrated runs none again', async () => {
    const names = (await query('select name from mikro_orm_migrations order by id')).map((row) => String(row.name));
    expect(names.slice(0, 2)).to.deep.equal(['0001-initial-schema', '0002-idempotency-keys']);
    expect(names).to.deep.equal([...names].sort());
  });

  it('when the migrations have run, then the 419 IANA time zones are there under the ids -1 to -419', async () => {
    expect(await query('select count(*)::int as count, min(timezone_id)::int as min, max(timezone_id)::int as max ' +
      'from timezone where timezone_id < 0'))
      .to.deep.equal([{ count: 419, min: -419, max: -1 }]);
  });
});
