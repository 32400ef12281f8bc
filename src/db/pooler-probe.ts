// Tells at start whether a PostgreSQL URL leads to the server itself or through a connection pooler, and its mode.
import pg from 'pg';

export type Pooling = 'direct' | 'transaction' | 'statement';

/** A URL no session could be opened on (unreachable, refused, authentication): names the setting, the host and the
 * bound, never the URL's password. */
export class DatabaseUnreachable extends Error {
  readonly variable: string;
  readonly host: string;
  constructor(variable: string, url: string, boundMs: number, cause: unknown) {
    const { hostname, port } = new URL(url);
    const host = `${hostname}:${port || 5432}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${variable}: cannot connect to PostgreSQL at ${host} ` +
      `(bound DB_CONNECT_TIMEOUT_MS ${boundMs} ms): ${reason}`);
    this.variable = variable;
    this.host = host;
  }
}

/**
 * One session-level probe on a connection of its own. A pooler answers the start-up with a cancel key of its own
 * (it forwards cancel requests itself), so the pid in it is not the pid of the server session that runs the
 * statements: straight to the server the two are the same. A pooler in statement mode ends a client that opens a
 * transaction block ("transaction blocks not allowed in statement pooling mode").
 */
export async function probePooling(variable: string, url: string, connectTimeoutMs: number): Promise<Pooling> {
  const client = new pg.Client({
    connectionString: url, connectionTimeoutMillis: connectTimeoutMs, query_timeout: connectTimeoutMs,
    application_name: 'sighting-registry probe',
  });
  // A pooler that ends the session reports it here as well as to the statement.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new DatabaseUnreachable(variable, url, connectTimeoutMs, error);
  }
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    // pg's Client keeps the server's BackendKeyData as `processID` (its own `cancel` sends it).
    const keyPid = (client as unknown as { processID: number | null }).processID;
    if (keyPid === rows[0]!.pid) return 'direct';
    try {
      await client.query('begin');
      await client.query('rollback');
      return 'transaction';
    } catch {
      return 'statement';
    }
  } finally {
    await client.end().catch(() => {});
  }
}
