// The settings only a PostgreSQL server gives a meaning to are refused without DATABASE_URL, each saying why, and
// accepted with it.
import { expect } from 'chai';
import { InvalidConfiguration, loadConfig } from '../../src/config/config.ts';

const server = 'postgresql://postgres@127.0.0.1:5432/x';
const needing = {
  DATABASE_REPLICA_URLS: ['postgresql://postgres@127.0.0.1:5433/x', 'the embedded database has no replicas'],
  DATABASE_MIGRATION_URL: [server, 'the embedded database has no server'],
  DATABASE_DIRECT_URL: [server, 'the embedded database has no server'],
} as const;

function problemsOf(env: Record<string, string>): unknown {
  try {
    loadConfig(env);
    return 'accepted';
  } catch (error) {
    if (error instanceof InvalidConfiguration) return error.problems;
    throw error;
  }
}

describe('settings that need DATABASE_URL', () => {
  for (const [variable, [value, why]] of Object.entries(needing)) {
    it(`when ${variable} is set without DATABASE_URL, then it is refused: it needs DATABASE_URL, ${why}`, () => {
      expect(problemsOf({ [variable]: value })).to.deep.equal([{ variable, problem: `needs DATABASE_URL: ${why}` }]);
    });

    it(`when ${variable} is set with DATABASE_URL, then it is accepted`, () => {
      expect(problemsOf({ [variable]: value, DATABASE_URL: server })).to.equal('accepted');
    });
  }

  it('when all three are set without DATABASE_URL, then the first in order is named, as before', () => {
    expect(problemsOf(Object.fromEntries(Object.entries(needing).map(([variable, [value]]) => [variable, value]))))
      .to.deep.equal([{ variable: 'DATABASE_REPLICA_URLS',
        problem: 'needs DATABASE_URL: the embedded database has no replicas' }]);
  });
});
