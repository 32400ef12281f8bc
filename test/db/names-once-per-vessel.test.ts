// A long list of sightings aggregates each vessel's names once per distinct vessel, not once per row: the view joins
// them laterally, which the planner memoizes by vessel id. Asserted on the executed plan, where the count is exact.
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { viewQuery, wholeViewStatement } from '../../src/crud/view-rows.ts';
import sighting from '../../src/resources/sighting.resource.ts';
import { languageMap, localizedName } from '../../src/resources/vessel-names.ts';
import { backend } from '../support/service.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

interface PlanNode { 'Node Type': string; 'Actual Loops': number; 'Relation Name'?: string; Plans?: PlanNode[] }

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe(`the names of a list's vessels (${backend})`, () => {
  let database: TestDatabase;
  let orm: MikroORM;
  before(async () => {
    database = await openTestDatabase();
    ({ orm } = database);
  });
  after(async () => { await database?.close(); });

  const query = (sql: string) => (orm.em as SqlEntityManager).getConnection().execute(sql);

  /** The executed plan's vessel_name scans hold at most one loop per demo vessel, under a Memoize node. */
  async function namesReadPerVessel(select: string) {
    const [result] = await query(`explain (analyze, format json) ${select} order by "r"."sighting_id"`);
    const plan = nodes((Object.values(result!)[0] as Array<{ Plan: PlanNode }>)[0]!.Plan);
    const namesScans = plan.filter((node) => node['Relation Name'] === 'vessel_name');
    expect(namesScans, 'a scan of vessel_name').to.have.length.greaterThan(0);
    expect(plan.filter((node) => node['Node Type'] === 'Memoize')).to.have.length.greaterThan(0);
    for (const scan of namesScans) expect(scan['Actual Loops']).to.be.at.most(2);
  }

  it('when 5,000 sightings of the two demo vessels are listed, ' +
    'then the names table is read twice, not 5,000 times', async () => {
    await query(`insert into "sighting" ("sighting_memo", "vessel_id", "creator") select 'row ' || g, ` +
      `case when g % 2 = 0 then -1 else -2 end, 'bench' from generate_series(1, 5000) g`);
    await query('analyze');
    await namesReadPerVessel(wholeViewStatement(orm.em, sighting));
  });

  it('when they are listed with the name picked in a locale, then the names table is read twice too', async () => {
    for (const locale of ['en', 'de'] as const) {
      const select = viewQuery(orm.em, sighting, {}, 'list', 'write', locale).getFormattedQuery();
      expect(select).to.include('"vessel_name"');
      await namesReadPerVessel(select);
    }
  });

  it('when a view row holds the names as the view query reads them (JSON text) ' +
    'or as an older history entry holds them (an array), then both render alike', async () => {
    const [row] = await query(`select "vessel_names" from (${wholeViewStatement(orm.em, sighting)}) as "v" ` +
      `where "v"."vessel_id" = -1 limit 1`);
    const text = row!.vessel_names as string;
    expect(text).to.be.a('string');
    const array = JSON.parse(text) as unknown;
    for (const locale of ['en', 'de', 'fr'])
      expect(localizedName(text, locale)).to.equal(localizedName(array, locale)).and.to.be.a('string');
    expect(localizedName(text, 'de')).to.not.equal(localizedName(text, 'en'));
    expect(languageMap(text)).to.deep.equal(languageMap(array));
    expect(localizedName(null, 'en')).to.equal(null);
  });
});
