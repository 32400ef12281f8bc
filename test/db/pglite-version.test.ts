// package.json overrides the PGlite that @mikro-orm/pglite pins: 0.5.8 copied its whole table of type parsers on
// every statement, about a third of a statement's CPU. Without the override npm would install that copy for the ORM.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';

const require = createRequire(import.meta.url);
/** The version of the PGlite that a module in `fromFile` would load (its entry point is dist/index.cjs). */
const pgliteVersionFrom = (fromFile: string) =>
  (JSON.parse(readFileSync(new URL('../package.json', `file://${createRequire(fromFile).resolve('@electric-sql/pglite')}`), 'utf8')) as { version: string }).version;

describe('the embedded PGlite', () => {
  it('when MikroORM opens PGlite, then it is the version package.json names, not the slower one the ORM pins', () => {
    const named =
      (require('../../package.json') as { dependencies: Record<string, string> }).dependencies['@electric-sql/pglite']!;
    expect(pgliteVersionFrom(import.meta.filename)).to.equal(named);
    expect(pgliteVersionFrom(require.resolve('@mikro-orm/pglite'))).to.equal(named);
    const [major, minor, patch] = named.split('.').map(Number);
    expect(major! > 0 || minor! > 5 || (minor === 5 && patch! >= 14),
      `PGlite ${named} copies its parsers on every statement`).to.equal(true);
  });
});
