// SQL statements on a connection of their own, opened and closed around them: what tests read or set on a server.
import pg from 'pg';

/**
 * Statements that make or drop a database run in the server's maintenance database `postgres`, which every
 * cluster has, rather than in the one the URL names (which need not exist yet); one that cannot be reached there
 * (no CONNECT on it) falls back to the URL's own database.
 */
const serverWide = /^\s*(create|drop) database\b/i;

async function connected(url: string, sql: string): Promise<pg.Client> {
  if (serverWide.test(sql)) {
    const maintenance = new URL(url);
    maintenance.pathname = '/postgres';
    const client = new pg.Client({ connectionString: maintenance.toString() });
    try {
      await client.connect();
      return client;
    } catch {
      await client.end().catch(() => {});
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Runs `sql` with `params` on a new connection to `url`; resolves with its rows. */
export async function query<T extends pg.QueryResultRow>(url: string, sql: string,
  params: unknown[] = []): Promise<T[]> {
  const client = await connected(url, sql);
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Runs `statements` one after another on one new connection to `url`. */
export async function queryAll(url: string, statements: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
