// Tells at start whether a PostgreSQL URL leads to the server itself or through a connection pooler, and its mode.
import pg from 'pg';

export type Pooling = 'direct' | 'transaction' | 'statement';

export interface ProbeBounds {
  /** Each try's bound (DB_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
  /** How long tries go on (DB_START_WAIT_MS): a server or pooler starting beside the service answers a moment later. */
  startWaitMs: number;
  /** Told of each failed try that will be followed by another. */
  onRetry(variable: string, reason: string, waitedMs: number): void;
}

// Node's codes for a server certificate that no trusted CA signed.
const untrustedCertificate = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_UNTRUSTED',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);

/** Why the connection failed, with the remedy where the driver's own words point elsewhere (Node suggests a flag). */
function reasonOf(cause: unknown): string {
  const code = String((cause as { code?: unknown } | undefined)?.code ?? '');
  if (untrustedCertificate.has(code)) {
    return `the server's certificate is not signed by a CA this instance trusts (${code}): name the CA's ` +
      'certificate file in the URL, `?sslrootcert=/path/to/ca.crt` (with `sslmode=verify-full`)';
  }
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Failures a later try cannot mend: a refused password or role (SQLSTATE class 28), an unknown database (3D000), an
 * untrusted certificate or one for another host. Everything else (refused, reset, timed out, "the database system is
 * starting up") may be a server or pooler that is still starting.
 */
const isFinal = (cause: unknown): boolean => {
  const code = String((cause as { code?: unknown } | undefined)?.code ?? '');
  return code.startsWith('28') || code === '3D000' || untrustedCertificate.has(code)
    || code === 'ERR_TLS_CERT_ALTNAME_INVALID';
};

/** A URL no session could be opened on (unreachable, refused, authentication): names the setting, the host and the
 * bound, never the URL's password. */
export class DatabaseUnreachable extends Error {
  readonly variable: string;
  readonly host: string;
  constructor(variable: string, url: string, boundMs: number, cause: unknown) {
    const { hostname, port } = new URL(url);
    const host = `${hostname}:${port || 5432}`;
    const reason = reasonOf(cause);
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
export async function probePooling(variable: string, url: string, bounds: ProbeBounds): Promise<Pooling> {
  const client = await firstConnection(variable, url, bounds);
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

/** The start's first session on `url`, tried again within `startWaitMs` while the failure may pass. */
async function firstConnection(variable: string, url: string, bounds: ProbeBounds): Promise<pg.Client> {
  const { connectTimeoutMs, startWaitMs, onRetry } = bounds;
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({
      connectionString: url, connectionTimeoutMillis: connectTimeoutMs, query_timeout: connectTimeoutMs,
      application_name: 'sighting-registry probe',
    });
    // A pooler that ends the session reports it here as well as to the statement.
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      const waited = performance.now() - started;
      // Each pause a little longer, at most 2 s: a server starting up is ready within seconds.
      const pause = Math.min(2000, 250 * attempt);
      if (isFinal(error) || waited + pause >= startWaitMs) {
        throw new DatabaseUnreachable(variable, url, connectTimeoutMs, error);
      }
      onRetry(variable, reasonOf(error), Math.round(waited));
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
