// A PostgreSQL database of the test run's own, made on the server DATABASE_URL names and dropped after; reached
// through PgBouncer too when the run has one (DATABASE_DIRECT_URL then names the server, scripts/with-pgbouncer.sh).
import { query } from './sql.ts';

export interface ScratchDatabase {
  /** The database as the service's pool reaches it: through the pooler when the run has one. */
  url: string;
  /** The service's settings for it: DATABASE_URL, and DATABASE_DIRECT_URL when the run has a pooler. */
  env: { DATABASE_URL: string; DATABASE_DIRECT_URL?: string };
  drop(): Promise<void>;
}

export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `sighting_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  // Made and dropped straight on the server: the pooler (with its `*` entry) reaches any database there.
  const pooled = serverUrl === process.env.DATABASE_URL && process.env.DATABASE_DIRECT_URL;
  const server = pooled ? process.env.DATABASE_DIRECT_URL! : serverUrl;
  await query(server, `create database "${name}"`);
  const inDatabase = (base: string) => {
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const url = inDatabase(serverUrl);
  return {
    url,
    env: { DATABASE_URL: url, ...(pooled && { DATABASE_DIRECT_URL: inDatabase(server) }) },
    drop: async () => { await query(server, `drop database if exists "${name}" with (force)`); },
  };
}
