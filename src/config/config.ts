// The service's settings: one schema, read from the environment and validated at start (fail fast).
import { z } from 'zod';

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');
// A message of its own: zod's "Invalid URL" says nothing of the form expected.
const urlForm = 'must be a PostgreSQL URL: postgresql://user[:password]@host[:port]/database';
/**
 * A password with `@ / : # ?` written into a URL unencoded still parses, as something else: `p@ss/w:rd#1` makes the
 * host `ss` and the rest a path and a fragment. Such a URL is refused, naming the remedy and no part of it.
 */
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: urlForm })
  .refine((text) => {
    // What does not parse at all is the check above's to report.
    if (!URL.canParse(text)) return true;
    const url = new URL(text);
    return url.hash === '' && /^(\/[^/:@]*)?$/.test(url.pathname);
  }, `${urlForm}; it has more than a database after the host: percent-encode \`@ / : # ?\` in a password ` +
    '(encodeURIComponent), or leave the password out of the URL and set PGPASSWORD');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080)
    .describe('TCP port to listen on (0 picks a free one).'),
  HOST: z.string().default('0.0.0.0').describe('Interface to listen on.'),
  MANAGEMENT_PORT: z.coerce.number().int().min(0).max(65535).optional()
    .describe('When set, /health/* and /metrics are served on this port (same interface) and not on PORT.'),
  BASE_PATH: z.string().regex(/^\/[A-Za-z0-9/_-]*[^/]$/).default('/api').describe(
    'Path under which the collections live.'),
  PUBLIC_URL: z.url().optional()
    .describe('Origin clients use to reach the service; default http://localhost:PORT. The embedded provider\'s issuer is built from it.'),
  DATABASE_URL: postgresUrl.optional()
    .describe('PostgreSQL connection URL (may be a transaction-mode pooler such as PgBouncer when ' +
      'DATABASE_DIRECT_URL is set); when unset the embedded PGlite database is used.'),
  DATABASE_DIRECT_URL: postgresUrl.optional()
    .describe('PostgreSQL URL straight to the server, for what needs a session of its own: migrations, their lock ' +
      'and the change feed\'s LISTEN; unset: DATABASE_URL.'),
  DATABASE_MIGRATION_URL: postgresUrl.optional()
    .describe('PostgreSQL URL straight to the server as the role that owns the schema, for migrations and their lock ' +
      '(a service running as a role that may only read and write rows); unset: DATABASE_DIRECT_URL, else ' +
      'DATABASE_URL.'),
  PGPASSWORD: z.string().optional()
    .describe('Password for every PostgreSQL URL that carries none (the driver reads it, as libpq does): keeps a ' +
      'password with `@ / : #` out of the URLs.'),
  EMBEDDED_DATABASE: flag.optional()
    .describe('`true` allows the embedded PGlite database with NODE_ENV=production (where it is refused, as an unset ' +
      'secret would lose every write at the next restart); elsewhere it is the default without DATABASE_URL.'),
  MIGRATE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(1).default(60000)
    .describe('Longest wait for the migration lock another process holds (who holds it is logged every few seconds); ' +
      'the start fails after it.'),
  DATA_DIR: z.string().optional().describe('PGlite data folder; when unset PGlite keeps everything in memory.'),
  MIGRATE_AT_START: flag.default(true)
    .describe('Apply pending migrations at start (under a lock, so instances starting together migrate once); ' +
      '`false` only checks that none is pending (fleets run `npm run migrate` first).'),
  DEMO_DATA: flag.optional().describe(
    'Seed the demo vessels and sighting; default true for PGlite, false for PostgreSQL.'),
  DATABASE_REPLICA_URLS: z.string().optional()
    .transform((text) => text?.split(',').map((url) => url.trim()).filter(Boolean) ?? [])
    .pipe(z.array(z.url({ protocol: /^postgres(ql)?$/ })))
    .describe('Comma-separated PostgreSQL URLs of read replicas; lists and query by example read from them.'),
  REPLICA_RETRY_MS: z.coerce.number().int().min(0).default(5000)
    .describe('After a replica fails, how long reads stay on the primary before the replicas are tried again.'),
  DB_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).default(5000)
    .describe('A replica whose replay is further behind than this (measured every second) gets no reads until it ' +
      'catches up.'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10).describe('Most PostgreSQL connections held open.'),
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/).default('64kb').describe('Largest request body accepted (413 above).'),
  BATCH_MAX_RECORDS: z.coerce.number().int().min(1).default(100_000)
    .describe('Most records one batch create (`POST /{resource}/batch`) takes (413 above).'),
  BATCH_MAX_BYTES: z.string().regex(/^\d+(b|kb|mb)$/).default('64mb')
    .describe('Largest batch create body accepted (413 above).'),
  KEYCLOAK_URL: z.url().optional()
    .describe('Keycloak base URL (e.g. http://127.0.0.1:8180); when unset the embedded OpenID provider serves the realm.'),
  KEYCLOAK_REALM: z.string().default('sighting').describe('Realm whose tokens are accepted.'),
  TOKEN_AUDIENCE: z.string().default('sighting-api').describe('Audience every access token must carry.'),
  REALM_KEYS_REFRESH_MS: z.coerce.number().int().min(100).max(50000).default(30000)
    .describe('How often the realm\'s signing keys are fetched: a key removed from the realm is refused after at '
      + 'most this plus REALM_KEYS_FETCH_TIMEOUT_MS.'),
  REALM_KEYS_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(10000).default(3000)
    .describe('A fetch of the realm\'s keys that has not answered by then is given up: a token of a key id the '
      + 'service has not seen is then a 503 with Retry-After.'),
  REALM_KEYS_MIN_FETCH_INTERVAL_MS: z.coerce.number().int().min(0).max(10000).default(1000)
    .describe('Least time between two fetches one unknown key id causes: a key id the realm did not list is refused '
      + 'without asking again for this long.'),
  IDEMPOTENCY_WINDOW_SECONDS: z.coerce.number().int().min(1).default(86400)
    .describe('How long a create\'s Idempotency-Key replays its first answer.'),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(5000)
    .describe('After SIGTERM, how long the listener keeps accepting (readiness already 503, every answer ' +
      '`Connection: close`) so balancers stop sending; SIGINT (Ctrl-C) skips it.'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000)
    .describe('How long a stop then waits for in-flight requests before closing anyway.'),
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(1).default(3000)
    .describe('Longest wait for a PostgreSQL connection from the pool (503 after).'),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(3000)
    .describe('Longest wait for a new PostgreSQL connection to open (503 after).'),
  DB_START_WAIT_MS: z.coerce.number().int().min(0).default(30000)
    .describe('How long a start keeps trying to open its first PostgreSQL connection (a server or pooler still ' +
      'starting, a slow TLS handshake) before it fails; each try is bounded by DB_CONNECT_TIMEOUT_MS.'),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).default(5000)
    .describe('Longest the service waits for a PostgreSQL statement\'s answer (1 s later than this it drops the ' +
      'connection; 503); a streamed list: each fetch. Set the server\'s own bound as the role\'s default: ALTER ROLE ' +
      '… SET statement_timeout.'),
  DB_PREPARED_STATEMENTS: flag.optional()
    .describe('Send a record\'s read by id and a one-row record\'s writes as named statements, parsed and planned ' +
      'once per connection; default true straight to the server, false behind a pooler (DATABASE_DIRECT_URL set): ' +
      'set true only for one that keeps them per client (PgBouncer 1.21+ with max_prepared_statements above 0).'),
  DB_DEBUG: flag.default(false).describe('Log every SQL statement with its duration.'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')
    .describe('Least severe log level written (pino levels).'),
  METRICS_TOKEN: z.string().min(16).optional()
    .describe('When set, GET /metrics needs `Authorization: Bearer <this token>`; ' +
      'unset: /metrics is open like /health.'),
  BUILD_COMMIT: z.string().max(64).optional().describe(
    'The commit the running build was made from, shown by the build-info metric.'),
  NODE_ENV: z.string().default('development').describe('`production` refuses the embedded provider.'),
  SIGHTING_SERVICE_SECRET: z.string().default('sighting-service-secret')
    .describe('Secret of the sighting-service client, read by the realm import (Keycloak and embedded provider).'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional()
    .describe('When set, each caller (token subject) may send this many API requests per minute to each instance; ' +
      '429 beyond.'),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000)
    .describe('Longest a client may take to send a request\'s header section (408 after; slow clients free their ' +
      'connection).'),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30000)
    .describe('Longest a client may take to send a whole request, body included (408 after).'),
  CORS_ORIGINS: z.string().optional()
    .transform((text) => text?.split(',').map((origin) => origin.trim()).filter(Boolean) ?? [])
    .pipe(z.array(z.url().refine((url) => URL.canParse(url) && new URL(url).origin === url,
      'each must be an origin as a browser sends it: scheme://host[:port], lower-case, no path')))
    .describe('Comma-separated origins (e.g. https://app.example.org) whose browser pages may call the API; unset: none.'),
  EVENTS_MAX_SUBSCRIBERS: z.coerce.number().int().min(0).default(1000)
    .describe('Most change-feed streams (GET /{resource}/events) one instance holds; 503 with Retry-After beyond.'),
  EVENTS_MAX_SUBSCRIBERS_PER_CALLER: z.coerce.number().int().min(1).default(10)
    .describe('Most change-feed streams one caller (token subject) holds on one instance; ' +
      '429 with Retry-After beyond.'),
  STREAM_WRITE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30000)
    .describe('A streamed answer (list, query by example, history, change feed) whose client takes nothing for this ' +
      'long is cut off, freeing what it held.'),
  STREAM_POOL_SHARE: z.coerce.number().gt(0).max(1).default(0.5)
    .describe('Share of DB_POOL_MAX that streamed reads (whole lists, queries by example, the change feed\'s catch-up) '
      + 'hold at once (at least one connection); beyond it they wait DB_ACQUIRE_TIMEOUT_MS, then 503.'),
  STREAM_IDLE_RELEASE_MS: z.coerce.number().int().min(10).default(1000)
    .describe('A streamed list whose client takes nothing for this long gives its connection back, and reads on from '
      + 'where it was once the client reads again.'),
  EVENTS_KEEPALIVE_MS: z.coerce.number().int().min(100).max(15000).default(15000)
    .describe('How often an idle change-feed stream gets a `: keep-alive` comment (proxies close silent connections).'),
  HEADER_LIMIT: z.coerce.number().int().min(1024).max(1048576).default(16384)
    .describe('Largest size in bytes of a request\'s header section (431 above).'),
});

export type Config = z.output<typeof schema> & { publicUrl: string };

/** The URL for what needs a session of its own (migrations, their lock, LISTEN): never through a transaction pooler. */
/** Settings only a PostgreSQL server gives a meaning to, in the order they are checked: each needs DATABASE_URL. */
const needsServer = [
  ['DATABASE_REPLICA_URLS', 'the embedded database has no replicas'],
  ['DATABASE_MIGRATION_URL', 'the embedded database has no server'],
  ['DATABASE_DIRECT_URL', 'the embedded database has no server'],
] as const;

const isSet = (value: readonly string[] | string | undefined): boolean =>
  typeof value === 'string' ? value !== '' : (value?.length ?? 0) > 0;

export const directUrl = (config: Pick<Config, 'DATABASE_URL' | 'DATABASE_DIRECT_URL'>): string | undefined =>
  config.DATABASE_DIRECT_URL ?? config.DATABASE_URL;

/** The URL migrations and their lock use: the schema's owner, straight to the server (never a pooler). */
export const migrationUrl =
  (config: Pick<Config, 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DATABASE_MIGRATION_URL'>): string | undefined =>
  config.DATABASE_MIGRATION_URL ?? directUrl(config);

/** Every environment variable the service reads (deploy files must set no other). */
export const settingNames: readonly string[] = Object.keys(schema.shape);

/** Settings that fail the schema: each variable with what is wrong with it (never its value, which may be a secret). */
export class InvalidConfiguration extends Error {
  readonly problems: ReadonlyArray<{ variable: string; problem: string }>;
  constructor(problems: ReadonlyArray<{ variable: string; problem: string }>) {
    super(`invalid configuration: ${problems.map(({ variable, problem }) => `${variable}: ${problem}`).join('; ')}`);
    this.problems = problems;
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty value is a mistake (an unset secret, a typo in a deploy file), never "unset": unset means absent.
  const empty = settingNames.filter((name) => env[name] !== undefined && env[name]!.trim() === '');
  if (empty.length) throw new InvalidConfiguration(empty.map((variable) => ({ variable,
    problem: 'is empty: remove it to use the default, or give it a value' })));
  const parsed = schema.safeParse(Object.fromEntries(settingNames.map((name) => [name, env[name]])));
  if (!parsed.success) {
    throw new InvalidConfiguration(parsed.error.issues.map((issue) => ({ variable: String(issue.path[0]),
      problem: issue.message })));
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && !config.DATABASE_URL && config.EMBEDDED_DATABASE !== true) {
    throw new InvalidConfiguration([{ variable: 'DATABASE_URL',
      problem: 'is not set, and NODE_ENV=production refuses the embedded database (everything written would be lost ' +
      'at a restart without DATA_DIR); set DATABASE_URL, or EMBEDDED_DATABASE=true to run on it anyway' }]);
  }
  if (config.EMBEDDED_DATABASE === true && config.DATABASE_URL) {
    throw new InvalidConfiguration([{ variable: 'EMBEDDED_DATABASE',
      problem: 'contradicts DATABASE_URL: set one of them' }]);
  }
  if (config.HEADERS_TIMEOUT_MS > config.REQUEST_TIMEOUT_MS) {
    throw new InvalidConfiguration([{ variable: 'HEADERS_TIMEOUT_MS',
      problem: 'must not exceed REQUEST_TIMEOUT_MS: the header is part of the request' }]);
  }
  const needing = config.DATABASE_URL ? undefined : needsServer.find(([variable]) => isSet(config[variable]));
  if (needing) throw new InvalidConfiguration([{ variable: needing[0], problem: `needs DATABASE_URL: ${needing[1]}` }]);
  return { ...config, publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '') };
}
