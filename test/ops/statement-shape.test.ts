// What a trace shows of a statement: its shape, with every value MikroORM wrote into the text taken out.
import { expect } from 'chai';
import { statementShape } from '../../src/observability/statement-shape.ts';

describe('statement shape (the SQL text in traces)', () => {
  const cases: Array<[string, string]> = [
    ['select "r"."sighting_id" from "sighting" as "r" where "r"."sighting_id" = -1 limit 100',
      'select "r"."sighting_id" from "sighting" as "r" where "r"."sighting_id" = ? limit ?'],
    [`insert into "sighting" ("sighting_memo", "vessel_id") values ('it''s unheimlich', 12) returning "sighting_id"`,
      'insert into "sighting" ("sighting_memo", "vessel_id") values (?, ?) returning "sighting_id"'],
    [String.raw`select * from "t" where "a" ilike E'%a\'b\\%' escape '\' and "b" = 3.5e2`,
      'select * from "t" where "a" ilike ? escape ? and "b" = ?'],
    ['select $tag$ a secret $tag$, "col1" from "t2" where "x" = $1', 'select ?, "col1" from "t2" where "x" = $1'],
    ['update "vessel" set "version" = "version" + 1 where "vessel_id" in (1, 2)',
      'update "vessel" set "version" = "version" + ? where "vessel_id" in (?, ?)'],
  ];
  for (const [sql, shape] of cases) {
    it(`when ${sql.slice(0, 40)}… is traced, then it shows as ${shape.slice(0, 40)}…`, () => {
      expect(statementShape(sql)).to.equal(shape);
    });
  }
});
