// One SQL statement on a connection of its own, opened and closed around it: what tests read or set on a server.
import pg from 'pg';

/** Runs `sql` with `params` on a new connection to `url`; resolves with its rows. */
export async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
