// Two service instances on a primary + streaming replica (scripts/postgres-replica.sh), and waiting for replay.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.ts';
import { startService, type TestService } from './service.ts';
import { query } from './sql.ts';

export interface Replication {
  primaryUrl: string;
  replicaUrl: string;
  /** `<version> <name>` of the replica cluster, for pg_ctlcluster. */
  replicaCluster: string;
}

/** The clusters scripts/postgres-replica.sh made, or undefined when the tests run without them. */
export function replication(): Replication | undefined {
  const { REPLICATION_PRIMARY_URL: primaryUrl, REPLICATION_REPLICA_URL: replicaUrl,
    REPLICATION_REPLICA_CLUSTER: replicaCluster } = process.env;
  return primaryUrl && replicaUrl && replicaCluster ? { primaryUrl, replicaUrl, replicaCluster } : undefined;
}

export const SKIP_REASON = '(replica tests skipped: they need a primary and a streaming replica; ' +
  'run them under scripts/postgres-replica.sh, as .ci/run does)';

const withDatabase = (serverUrl: string, database: string) =>
  Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();

/**
 * Waits until the replica has replayed everything committed on the primary so far. The WAL's insert position, not its
 * write position: a test database commits without waiting for the WAL to be written (synchronous_commit off,
 * test/support/scratch-database.ts), so a commit's record may still be in the primary's buffers.
 */
export async function waitForReplay(setup: Replication, timeoutMs = 60_000): Promise<void> {
  const [{ lsn }] = await query<{ lsn: string }>(setup.primaryUrl,
    'select pg_current_wal_insert_lsn()::text as lsn') as [{ lsn: string }];
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const [row] = await query<{ caught: boolean }>(setup.replicaUrl,
      'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught', [lsn]);
    if (row?.caught) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the replica did not replay ${lsn} within ${timeoutMs} ms`);
}

export interface TwoInstances {
  database: ScratchDatabase;
  /** The scratch database on the primary and on the replica. */
  primaryDbUrl: string;
  replicaDbUrl: string;
  a: TestService;
  b: TestService;
  stop(): Promise<void>;
}

/** A scratch database on the primary, and two instances that write to the primary and read lists from the replica. */
export async function startTwoInstances(setup: Replication, env: Record<string, string> = {}): Promise<TwoInstances> {
  const database = await createScratchDatabase(setup.primaryUrl);
  const name = new URL(database.url).pathname.slice(1);
  const replicaDbUrl = withDatabase(setup.replicaUrl, name);
  // Instance a migrates and seeds; b starts once that has reached the replica, so both see the same schema.
  const settings = { DATABASE_URL: database.url, DATABASE_REPLICA_URLS: replicaDbUrl, DB_POOL_MAX: '4', ...env };
  const a = await startService(settings);
  await waitForReplay(setup);
  const b = await startService({ ...settings, DEMO_DATA: 'false' });
  return {
    database, primaryDbUrl: database.url, replicaDbUrl, a, b,
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      await database.drop();
    },
  };
}

/** Stops or starts the replica cluster itself (not a proxy in front of it). */
export async function replicaCluster(setup: Replication, action: 'stop' | 'start'): Promise<void> {
  const [version, name] = setup.replicaCluster.split(' ');
  await promisify(execFile)('pg_ctlcluster',
    ['--skip-systemctl-redirect', version!, name!, action, ...(action === 'stop' ? ['-m', 'fast'] : [])]);
}
