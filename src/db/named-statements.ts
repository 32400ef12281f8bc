// Statements whose text never changes (a record's read by id, a one-row record's writes), sent with bound parameters
// under a name: PostgreSQL parses and plans each once per connection, not on every call, and the values are no longer
// written into the text. MikroORM's `execute` writes them into the text (upstream mikro-orm/mikro-orm#8001); its
// `getNativeClient()` hands over the `pg` pool for what it does not wrap, and a named statement is `pg`'s own API.
import pg from 'pg';
import type { Connection, EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import type { ConnectionType } from './read-routing.ts';

export interface NamedStatement {
  /** With `?` placeholders, as MikroORM's `execute` takes it (PGlite, or inside a transaction). */
  readonly sql: string;
  /** With `$1`, `$2` … placeholders, as PostgreSQL takes it. */
  readonly text: string;
  readonly name: string;
}

const named = new Map<string, NamedStatement>();

/** `?` placeholders as PostgreSQL's `$1`, `$2` … */
const numbered = (sql: string) => {
  let parameter = 0;
  return sql.replace(/\?/g, () => `$${++parameter}`);
};

/** The statement of `sql`, named once per process: the same text always has the same name. */
export function namedStatement(sql: string): NamedStatement {
  let statement = named.get(sql);
  if (!statement) {
    statement = { sql, text: numbered(sql), name: `sighting_registry_${named.size + 1}` };
    named.set(sql, statement);
  }
  return statement;
}

/**
 * `sql` bound but unnamed (the name empty): planned for its values each time. A list's rows depend on values whose
 * selectivity varies (a substring found in 1 row or in 3,000): a prepared statement's generic plan, which PostgreSQL
 * switches to after five runs, read all 100,000 rows for a rare substring (90 ms of database CPU instead of 0.3).
 */
export function unnamedStatement(sql: string): NamedStatement {
  return { sql, text: numbered(sql), name: '' };
}

/**
 * An int8 (an id) as a number where it is a safe integer, as PGlite answers it; beyond ±(2^53−1) its text, as `pg`
 * answers every int8. `pg`'s own parser tests each value's text with a regular expression and answers the text, which
 * every reader then made a number: a page of 50 paid that for each id of each row.
 */
function int8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

type TypeParser = ReturnType<pg.CustomTypesConfig['getTypeParser']>;
type AnswerTypes = { getTypeParser: pg.CustomTypesConfig['getTypeParser'] };

/**
 * A client's own type parsers (MikroORM's: dates kept as text), with int8 read by `int8`; one per client. pg asks for
 * each column of each answer (its row description comes with every run of a named statement too): each type's text
 * parser is found once, as the client's own do not change once it is connected.
 */
const answerTypes = new WeakMap<pg.PoolClient, AnswerTypes>();

function typesOf(client: pg.PoolClient): AnswerTypes {
  let types = answerTypes.get(client);
  if (types === undefined) {
    const own = client as pg.PoolClient & AnswerTypes;
    const textParsers = new Map<number, TypeParser>();
    types = { getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (format === 'binary') return own.getTypeParser(oid, format);
      let parser = textParsers.get(oid);
      if (parser === undefined)
        textParsers.set(oid, parser = oid === pg.types.builtins.INT8 ? int8 : own.getTypeParser(oid, format));
      return parser;
    }) as pg.CustomTypesConfig['getTypeParser'] };
    answerTypes.set(client, types);
  }
  return types;
}

/**
 * PostgreSQL keeps a prepared statement's answer type: after a migration changes a column it answers, every run of
 * the statement on that session fails (SQLSTATE 0A000) until the name is gone with its session.
 */
const isStalePlan = (error: unknown) => (error as { code?: unknown }).code === '0A000'
  && /cached plan must not change result type/.test(String((error as Error).message));

/**
 * One run on a connection of the pool; a session whose statement went stale is closed, not handed out again.
 * MikroORM's `onQuery` and `onReserveConnection` hooks see it as they see MikroORM's own statements (the acquire wait
 * is timed by them).
 */
async function runOnce<T extends object>(
  em: EntityManager, pool: pg.Pool, statement: NamedStatement, params: readonly unknown[],
): Promise<T[]> {
  em.config.get('onQuery')(statement.text, params);
  const client = await pool.connect();
  let stale: Error | undefined;
  try {
    // Awaited only when it answers a promise: most hooks answer nothing to wait for.
    const reserved: unknown = em.config.get('onReserveConnection')?.(client);
    if (reserved instanceof Promise) await reserved;
    const { name, text } = statement;
    return (await client.query<T>({ name: name || undefined, text, values: params as unknown[],
      types: typesOf(client) })).rows;
  } catch (error) {
    if (isStalePlan(error)) stale = error as Error;
    throw error;
  } finally {
    // Released without the error otherwise: a refused write (a constraint) leaves a good session (pg-pool's own
    // `query` would close it). A connection that broke is not reused either way.
    client.release(stale);
  }
}

/**
 * Each connection's `pg` pool (or PGlite), as MikroORM hands it over: its `getNativeClient` is an async function that
 * checks the connection each time, two promises and two turns a statement. MikroORM makes a connection's pool as it
 * connects, and the service never connects a closed connection again: once it is closed (the instance stopping), the
 * pool held here answers each statement with pg's "Cannot use a pool after calling end", which the error handler
 * answers as the instance stopping, where the connection's own would have opened a new pool.
 */
const nativeClients = new WeakMap<Connection, unknown>();

async function nativeClientOf(connection: Connection): Promise<unknown> {
  const client: unknown = await connection.getNativeClient();
  nativeClients.set(connection, client);
  return client;
}

/**
 * Runs `statement` on the primary (or on a replica, `connectionType` 'read') and answers its rows. On PostgreSQL
 * outside a transaction: by name (unless its name is empty), through the pool MikroORM keeps (its clients bound
 * every wait, src/db/bounded-waits.ts, and send it unnamed where a pooler could not keep it); a statement gone stale
 * under a migration is run once more, on another session (it changed nothing: it failed before it ran); timed and
 * logged through MikroORM's logger, as its own statements are; a failure converted to MikroORM's exceptions, as
 * `execute` does. Else through MikroORM's `execute`, in the transaction if any.
 */
export async function runNamed<T extends object>(em: EntityManager, statement: NamedStatement,
  params: readonly unknown[], connectionType: ConnectionType = 'write'): Promise<T[]> {
  const sqlEm = em as SqlEntityManager;
  const connection = sqlEm.getTransactionContext() ? undefined : em.getConnection(connectionType);
  const pool = connection && (nativeClients.get(connection) ?? await nativeClientOf(connection));
  if (!(pool instanceof pg.Pool)) return sqlEm.execute<T[]>(statement.sql, [...params]);
  const started = performance.now();
  let rows: T[];
  try {
    try {
      rows = await runOnce<T>(em, pool, statement, params);
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      rows = await runOnce<T>(em, pool, statement, params);
    }
  } catch (error) {
    logRun(em, statement, params, connectionType, started, 'error');
    throw em.getDriver().convertException(error as Error);
  }
  logRun(em, statement, params, connectionType, started, 'info', rows.length);
  return rows;
}

/** The connection a run names to the logger: one object per type, not one per run. */
const connections = { read: { type: 'read' }, write: { type: 'write' } } as const;

/**
 * A run reported to MikroORM's logger as its own statements are (their durations are timed from it). The logger only
 * reads the parameters, and formats them only at its debug level: handed over as they are, not copied.
 */
function logRun(em: EntityManager, statement: NamedStatement, params: readonly unknown[],
  connectionType: ConnectionType, started: number, level: 'info' | 'error', results?: number): void {
  em.config.getLogger().logQuery({ level, query: statement.text, params: params as unknown[],
    took: performance.now() - started, results, connection: connections[connectionType] });
}
