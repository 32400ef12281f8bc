// Bounds every wait on PostgreSQL (a free connection, a new connection, a statement), so a lost database is a 503 in seconds.
import type { Config } from '../config.ts';
import { boundedClientClass } from './bounded-client.ts';

type Settings = Pick<Config, 'DB_ACQUIRE_TIMEOUT_MS' | 'DB_CONNECT_TIMEOUT_MS' | 'DB_STATEMENT_TIMEOUT_MS'>;

/**
 * MikroORM hands these `driverOptions` to pg-pool (`new Pool(options)`), which hands them on to each client it makes.
 * pg-pool's `connectionTimeoutMillis` bounds the wait for a free connection; each client gets its own connect bound
 * (src/db/bounded-client.ts). A statement is bounded twice: by the server (`statement_timeout`, SQLSTATE 57014) and,
 * for a network that is cut rather than refusing, where no answer ever comes, by the client. A streamed list lifts
 * the server's bound for its own transaction (src/crud/row-stream.ts); the client bounds each of its fetches.
 */
/** `onPool` sees each pool as it is made (metrics count its connections). */
export function boundedWaits(settings: Settings, onPool: (pool: object) => void = () => {}): Record<string, unknown> {
  return {
    connectionTimeoutMillis: settings.DB_ACQUIRE_TIMEOUT_MS,
    statement_timeout: settings.DB_STATEMENT_TIMEOUT_MS,
    // The client's bound is slightly later than the server's own, so a reachable server answers 57014 first.
    Client: boundedClientClass({ connectMs: settings.DB_CONNECT_TIMEOUT_MS, answerMs: settings.DB_STATEMENT_TIMEOUT_MS + 1000 }),
    onPoolCreated: onPool,
  };
}
