// The start's rules for poolers: what may go through one, checked before the pool opens or any lock is taken.
import { InvalidConfiguration, type Config } from '../config/config.ts';
import { probePooling, type ProbeBounds } from './pooler-probe.ts';
import type { Logger } from '../observability/logger.ts';

type Settings = Pick<Config,
  'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DATABASE_MIGRATION_URL' | 'DB_CONNECT_TIMEOUT_MS' | 'DB_START_WAIT_MS'>;

/**
 * DATABASE_URL may be a pooler in transaction mode only when DATABASE_DIRECT_URL names the server itself: the
 * migration lock and LISTEN are a session's, and the statement bound is a startup parameter a pooler refuses. A pooler
 * in statement mode cannot run the service's transactions (a list reads through a cursor in one) whatever else is
 * set. DATABASE_DIRECT_URL and DATABASE_MIGRATION_URL must reach the server itself. `migrates`: whether this start
 * uses the migration URL at all (MIGRATE_AT_START=false with no demo data does not).
 */
export async function checkPooling(config: Settings, migrates: boolean, logger: Logger): Promise<void> {
  const bound: ProbeBounds = {
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    startWaitMs: config.DB_START_WAIT_MS,
    onRetry: (variable, reason, waitedMs) => logger.warn({ variable, reason, waitedMs },
      `${variable}: PostgreSQL cannot be reached yet (${reason}); trying again within DB_START_WAIT_MS`),
  };
  const pooling = await probePooling('DATABASE_URL', config.DATABASE_URL!, bound);
  if (pooling === 'statement') {
    throw new InvalidConfiguration([{ variable: 'DATABASE_URL',
      problem: 'leads through a connection pooler in statement mode, which cannot run the service\'s transactions: ' +
      'use transaction mode (pool_mode = transaction) with DATABASE_DIRECT_URL beside it' }]);
  }
  if (pooling === 'transaction' && !config.DATABASE_DIRECT_URL) {
    throw new InvalidConfiguration([{ variable: 'DATABASE_DIRECT_URL',
      problem: 'is not set, and DATABASE_URL leads through a connection pooler: set DATABASE_DIRECT_URL to the ' +
      'server itself (migrations, their lock and the change feed need a session of their own)' }]);
  }
  const direct = [
    ...(config.DATABASE_DIRECT_URL ? [['DATABASE_DIRECT_URL', config.DATABASE_DIRECT_URL] as const] : []),
    ...(migrates && config.DATABASE_MIGRATION_URL ? [['DATABASE_MIGRATION_URL', config.DATABASE_MIGRATION_URL] as const]
      : []),
  ];
  for (const [variable, url] of direct) {
    if (await probePooling(variable, url, bound) !== 'direct') {
      throw new InvalidConfiguration([{ variable,
        problem: 'leads through a connection pooler: it must name the PostgreSQL server itself' }]);
    }
  }
}
