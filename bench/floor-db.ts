// The floor server's database access: a `pg` pool with cursors on PostgreSQL, or PGlite in-process.
import pg from 'pg';
import Cursor from 'pg-cursor';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export type Row = Record<string, unknown>;

export interface FloorDb {
  /**
   * With a `name`, the statement is prepared once per connection on PostgreSQL, as the service sends its read by id and
   * its writes.
   */
  query(sql: string, params: unknown[], name?: string): Promise<Row[]>;
  /**
   * Rows of `batchSql` (`params`, then the last id read and the batch size) in chunks: on PostgreSQL the first chunk
   * as one statement (named `name`, else unnamed and planned for its values, as the service sends a list's) and, only
   * when it is full, the rest through a cursor, as the service reads them; keyset batches on PGlite.
   */
  chunks(batchSql: string, params: unknown[], size: number, name?: string): AsyncGenerator<Row[]>;
}

/** Below every id: the keyset's start. */
const firstId = '-9223372036854775808';

// int8 ids as numbers and timestamps as their text, as the service's ORM reads them.
const parsers = { 20: (v: string) => Number(v), 1114: (v: string) => v };

export async function openFloorDb(env: NodeJS.ProcessEnv): Promise<FloorDb> {
  if (env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: Number(env.DB_POOL_MAX ?? 10) });
    const types = { getTypeParser: (oid: number, format?: string) =>
      parsers[oid as 20] ?? pg.types.getTypeParser(oid, format as 'text') };
    return {
      // FLOOR_UNNAMED=true: bound but unnamed, parsed and planned each time (the floor before the service named its
      // statements).
      query: async (sql, params, name) => (await pool.query({ name: env.FLOOR_UNNAMED === 'true' ? undefined : name,
        text: sql, values: params, types })).rows,
      async *chunks(batchSql, params, size, name) {
        const first = (await pool.query({ name, text: batchSql, values: [...params, firstId, size], types })).rows;
        if (first.length > 0) yield first;
        if (first.length < size) return;
        const client = await pool.connect();
        // LIMIT NULL reads every row after the first chunk's last.
        const rest = [...params, first.at(-1)!.sighting_id, null];
        const cursor = client.query(new Cursor(batchSql, rest, { types } as never));
        try {
          for (let rows = await cursor.read(size); rows.length > 0; rows = await cursor.read(size)) yield rows;
        } finally {
          await cursor.close();
          client.release();
        }
      },
    };
  }
  // The ORM keeps its tables in the database `sighting` of a PGlite data folder.
  const db = await PGlite.create({ dataDir: env.DATA_DIR, database: 'sighting', extensions: { pg_trgm }, parsers });
  return {
    query: async (sql, params) => (await db.query<Row>(sql, params)).rows,
    async *chunks(batchSql, params, size) {
      for (let after: unknown = firstId; ;) {
        const rows = (await db.query<Row>(batchSql, [...params, after, size])).rows;
        if (rows.length > 0) yield rows;
        if (rows.length < size) return;
        after = rows.at(-1)!.sighting_id as number;
        // Let other requests in between batches, as the service does.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
