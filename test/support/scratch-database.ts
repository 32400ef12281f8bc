// A PostgreSQL database of the test run's own, made on the server DATABASE_URL names and dropped after; reached
// through PgBouncer too when the run has one (DATABASE_DIRECT_URL then names the server, scripts/with-pgbouncer.sh),
// and made by the schema's owner when the run has one apart from the service's role (DATABASE_MIGRATION_URL,
// scripts/postgres-production.sh), which then grants the service's role what docs/postgresql-operations.md says.
import { query, queryAll } from './sql.ts';
import { refuseOwnDatabase } from './own-databases.ts';

export interface ScratchDatabase {
  /** The database as the service's pool reaches it: through the pooler when the run has one. */
  url: string;
  /** The service's settings for it: DATABASE_URL, and DATABASE_DIRECT_URL / DATABASE_MIGRATION_URL as the run has. */
  env: { DATABASE_URL: string; DATABASE_DIRECT_URL?: string; DATABASE_MIGRATION_URL?: string };
  drop(): Promise<void>;
}

/** `url` with its database replaced by `name` (user, password, host and TLS settings kept). */
export function inDatabase(url: string, name: string): string {
  const changed = new URL(url);
  changed.pathname = `/${name}`;
  return changed.toString();
}

/**
 * The grants of a database whose owner is not the service's role: rows only, no DDL (docs/postgresql-operations.md).
 */
const appGrants = (role: string): string[] => [
  'revoke create on schema public from public',
  `grant usage on schema public to "${role}"`,
  `alter default privileges in schema public grant select, insert, update, delete on tables to "${role}"`,
  `alter default privileges in schema public grant usage, select on sequences to "${role}"`,
];

export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  refuseOwnDatabase('createScratchDatabase');
  return makeScratchDatabase(serverUrl);
}

/** The same, unguarded: for the service the run shares (test/support/service.ts), which any file may use. */
export async function makeScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `sighting_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const ofRun = serverUrl === process.env.DATABASE_URL;
  // Made and dropped straight on the server: the pooler (with its `*` entry) reaches any database there.
  const pooled = ofRun && process.env.DATABASE_DIRECT_URL;
  const server = pooled ? process.env.DATABASE_DIRECT_URL! : serverUrl;
  const owner = ofRun ? process.env.DATABASE_MIGRATION_URL : undefined;
  const maker = owner ?? server;
  await query(maker, `create database "${name}"`);
  // A test database is dropped after its run: its commits need not wait for the WAL to reach the disk, which on the
  // machine's own server (fsync on) made every write of the suites beside it wait on a busy disk.
  await query(maker, `alter database "${name}" set synchronous_commit = off`);
  const role = decodeURIComponent(new URL(serverUrl).username);
  if (owner && role && role !== decodeURIComponent(new URL(owner).username)) {
    await queryAll(inDatabase(owner, name), appGrants(role));
  }
  const url = inDatabase(serverUrl, name);
  return {
    url,
    env: {
      DATABASE_URL: url,
      ...(pooled && { DATABASE_DIRECT_URL: inDatabase(server, name) }),
      ...(owner && { DATABASE_MIGRATION_URL: inDatabase(owner, name) }),
    },
    drop: async () => { await query(maker, `drop database if exists "${name}" with (force)`); },
  };
}
