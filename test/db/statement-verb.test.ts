// A statement's duration is labelled by its first word (src/db/timed-queries.ts), read in place without a copy: the
// label must be the one a regular expression and a lower-cased copy would give.
import { expect } from 'chai';
import { statementVerb } from '../../src/db/timed-queries.ts';

const verbs: ReadonlyArray<[string, string]> = [
  // A known word, in any case, after any space.
  ['select 1', 'select'], ['  \n\tinsert into "sighting" values (1)', 'insert'],
  ['UPDATE "sighting" set x = 1', 'update'],
  ['With x as (select 1) select * from x', 'with'], ['begin', 'begin'], ['set local statement_timeout = 0', 'set'],
  // Another word, a longer one, or none.
  ['vacuum analyze sighting', 'other'], ['selection', 'other'], ['sel', 'other'], ['(select 1)', 'other'],
  ['', 'other'], ['   ', 'other'],
];

describe('the verb a statement is timed under', () => {
  for (const [statement, verb] of verbs) {
    it(`when a statement is ${JSON.stringify(statement)}, then its verb is "${verb}"`, () => {
      expect(statementVerb(statement)).to.equal(verb);
    });
  }
});
