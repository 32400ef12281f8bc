// A record's read by id and a one-row record's writes are named statements on PostgreSQL: parsed and planned once per
// connection, then only bound and run (src/db/named-statements.ts). Behind a transaction pooler, which hands each
// statement to any server session, they go unnamed unless the operator says the pooler keeps them.
import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { createWithHistory, rowState } from '../../src/crud/write/row-writes.ts';
import { insertStatement, stateStatement } from '../../src/crud/write/row-statements.ts';
import { byIdStatement, readRow } from '../../src/crud/view-rows.ts';
import { namedStatement, runNamed } from '../../src/db/named-statements.ts';
import { rowValues } from '../../src/crud/write/row-values.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { isDatabaseClosed } from '../../src/errors/database-unavailable.ts';

const behindPooler = process.env.DATABASE_DIRECT_URL !== undefined;

describe('named statements on PostgreSQL @pgbouncer', () => {
  before(function () {
    if (!process.env.DATABASE_URL) this.skip();
  });

  const body = { sightingMemo: 'named', vessel: { vesselId: -1 }, sightingTimezone: 'Europe/Berlin',
    sightingDate: '2026-11-27T06:00' };
  const data = { ...sighting.values(body), creator: 'subject-1' };
  const create = (database: TestDatabase) => createWithHistory(database.orm.em, sighting, data, 'alice');
  /** The statements prepared on the session of the pool's one connection (pg_prepared_statements is per session). */
  const prepared = async (database: TestDatabase) => ((await (database.orm.em as SqlEntityManager).getConnection()
    .execute('select "name", "statement" from pg_prepared_statements where not from_sql')) as
    Array<{ name: string; statement: string }>);

  async function withDatabase(settings: Record<string, string>,
    use: (database: TestDatabase) => Promise<void>): Promise<void> {
    const database = await openTestDatabase({ DB_POOL_MAX: '1', ...settings });
    try {
      await use(database);
    } finally {
      await database.close();
    }
  }

  it('when the service is straight on the server, then a create, ' +
    'a read by id and a state read are prepared once on their connection and run by name after', async function () {
    if (behindPooler) this.skip();
    await withDatabase({}, async (database) => {
      const { em } = database.orm;
      for (let i = 0; i < 3; i++) {
        const { id } = await create(database);
        expect((await readRow(em, sighting, id))?.sighting_memo).to.equal('named');
        expect((await rowState(em, sighting, id))?.version).to.equal(0);
      }
      const { columns } = rowValues(em, sighting, data);
      const expected = [insertStatement(em, sighting, columns), namedStatement(byIdStatement(em, sighting)),
        stateStatement(em, sighting)];
      // Each once: a statement prepared again under its name would have failed the second create (42P05).
      expect(await prepared(database))
        .to.have.deep.members(expected.map(({ name, text }) => ({ name, statement: text })));
    });
  });

  it('when a migration changes a column a named statement answers, ' +
    'then the next read still answers, on a session that prepares it anew', async function () {
    if (behindPooler) this.skip();
    await withDatabase({}, async (database) => {
      const { em } = database.orm;
      const { id } = await create(database);
      await readRow(em, sighting, id);
      // Another type for the answer's column: PostgreSQL refuses to run the statement prepared before (0A000).
      await (em as SqlEntityManager).getConnection()
        .execute('alter table "sighting" alter column "sighting_memo" type varchar(301)');
      expect((await readRow(em, sighting, id))?.sighting_memo).to.equal('named');
      expect((await readRow(em, sighting, id))?.sighting_memo).to.equal('named');
    });
  });

  it('when prepared statements are switched off, ' +
    'then the same statements run unnamed and nothing stays prepared', async function () {
    if (behindPooler) this.skip();
    await withDatabase({ DB_PREPARED_STATEMENTS: 'false' }, async (database) => {
      const { id } = await create(database);
      expect((await readRow(database.orm.em, sighting, id))?.sighting_memo).to.equal('named');
      expect(await prepared(database)).to.deep.equal([]);
    });
  });

  it('when the service is behind a transaction pooler, then its statements go unnamed: creates and reads at once, ' +
    'each on whichever server session is free, all succeed', async function () {
    if (!behindPooler) this.skip();
    // 60 at once on 10 connections queue for them: far longer than the default 3 s on a loaded machine, and the
    // acquire bound is not what this test is about.
    await withDatabase({ DB_POOL_MAX: '10', DB_ACQUIRE_TIMEOUT_MS: '60000' }, async (database) => {
      const ids = await Promise.all(Array.from({ length: 60 }, async () => (await create(database)).id));
      const rows = await Promise.all(ids.map((id) => readRow(database.orm.em, sighting, id)));
      expect(rows.map((row) => row?.sighting_memo)).to.deep.equal(ids.map(() => 'named'));
    });
  });

  it('when a statement answers int8 values, then a safe integer comes as a number (as on PGlite) and a larger one as ' +
    'its exact text, while the pool\'s own parsers still hold (a timestamp stays text)', async () => {
    await withDatabase({}, async (database) => {
      const [row] = await runNamed<Record<string, unknown>>(database.orm.em, namedStatement(
        'select ?::int8 as "small", ?::int8 as "large", ?::int8 as "none", ?::timestamp as "moment"'),
      ['-9007199254740991', '9007199254740993', null, '2026-11-27 06:00:00']);
      expect(row).to.deep.equal({ small: -9007199254740991, large: '9007199254740993', none: null,
        moment: '2026-11-27 06:00:00' });
      const { id } = await create(database);
      expect((await readRow(database.orm.em, sighting, id))?.sighting_id).to.equal(id);
    });
  });

  it('when the ORM has closed (the instance stopping), then a statement is refused as the closed pool\'s, ' +
    'not run on a pool opened anew', async () => {
    const database = await openTestDatabase({ DB_POOL_MAX: '1' });
    const { em } = database.orm;
    const { id } = await create(database);
    expect((await readRow(em, sighting, id))?.sighting_id).to.equal(id);
    await database.close();
    const refused = await readRow(em, sighting, id).then(() => undefined, (error: unknown) => error);
    expect(isDatabaseClosed(refused), String(refused)).to.equal(true);
    expect(await database.orm.isConnected()).to.equal(false);
  });
});
