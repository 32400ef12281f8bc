// What one trivial statement costs the process that issues it: PGlite runs the whole engine there, `pg` only a client.
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

/**
 * CPU milliseconds of this process per `select $1::int` (a `select 1` with a parameter), after a warm-up, on a fresh
 * in-memory PGlite and over `pg`.
 */
export async function selectOneCpuMs(databaseUrl: string): Promise<{ pglite: number; postgresql: number }> {
  const pglite = await PGlite.create();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The ORM's PGlite driver issues `query` (the extended protocol), as `pg` does with parameters.
    return {
      pglite: await cpuPerCall(() => pglite.query('select $1::int', [1])),
      postgresql: await cpuPerCall(() => client.query('select $1::int', [1])),
    };
  } finally {
    await client.end();
    await pglite.close();
  }
}

async function cpuPerCall(call: () => Promise<unknown>, times = 3000): Promise<number> {
  for (let i = 0; i < 300; i++) await call();
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) await call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / times;
}
