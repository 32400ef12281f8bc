// Files tagged @database-independent check what does not depend on the database (or the provider) the service runs
// with, so CI runs them once, in a process of their own (`npm run test:database-independent`) where this guard refuses
// every database a test would start for itself: a file wrongly tagged fails there instead of passing untested on
// PostgreSQL. The shared service (the one the root hooks start) is allowed: it runs on whatever the run has.
// docs/testing.md#tests-that-run-once

/** The tag, in a top-level describe's title; mocha's `--grep` picks the files by it. */
export const databaseIndependentTag = '@database-independent';

/** Set to `refused` by the database-independent run (package.json). */
export const ownDatabasesSetting = 'TEST_OWN_DATABASES';

export class OwnDatabaseRefused extends Error {
  constructor(what: string) {
    super(`${what}: a file tagged ${databaseIndependentTag} starts no database or service of its own; `
      + 'use the shared service, or take the tag off (docs/testing.md#tests-that-run-once)');
    this.name = 'OwnDatabaseRefused';
  }
}

/** Throws when this run refuses databases of a test's own; `what` names what was about to start one. */
export function refuseOwnDatabase(what: string): void {
  if (process.env[ownDatabasesSetting] === 'refused') throw new OwnDatabaseRefused(what);
}
