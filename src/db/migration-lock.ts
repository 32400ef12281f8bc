// The migration lock: a session advisory lock on a direct connection of its own, waited for within a bound, saying who
// holds it.
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from '../observability/logger.ts';

/** The key of the advisory lock every migration run takes (any fixed bigint; advisory locks are per database). */
export const migrationLock = '89500628037735';
/** How often a waiting process tries the lock again, and how often it says who holds it. */
const retryMs = 250;
const reportMs = 5000;

export interface LockSettings {
  /** Straight to PostgreSQL: through a transaction pooler a session lock would stay with an idle server connection. */
  url: string;
  connectTimeoutMs: number;
  /** Longest wait for the lock (`MIGRATE_LOCK_TIMEOUT_MS`). */
  waitMs: number;
  logger: Logger;
}

/**
 * Who holds the lock, as pg_stat_activity knows the session: what an operator needs to find it (and end it). A session
 * of another role shows only its pid and application_name (PostgreSQL hides the rest unless this role has
 * pg_read_all_stats), so the rest is null then, and `visible` says why.
 */
export interface LockHolder {
  pid: number;
  /** False when the holder is another role's session, whose details PostgreSQL hides from this role. */
  visible: boolean;
  applicationName: string | null;
  clientAddress: string | null;
  /** When the holding session connected: it has held the lock at most since then. */
  connectedSince: string | null;
  state: string | null;
}

const describe = (holder: LockHolder): string => holder.visible
  ? `pid ${holder.pid} (${holder.applicationName || 'no application_name'}) connected since ${holder.connectedSince}`
  : `pid ${holder.pid} (${holder.applicationName || 'no application_name'}: another role's session, not visible to ` +
    `this role)`;

/** The start's one failure line when the bound passes: names the setting and the holder. */
export class MigrationLockTimeout extends Error {
  readonly holder: LockHolder | undefined;
  constructor(waitMs: number, holder: LockHolder | undefined) {
    const by = holder ? `: held by ${describe(holder)}` : '';
    super(`the migration lock was not free within MIGRATE_LOCK_TIMEOUT_MS (${waitMs} ms)${by}`);
    this.holder = holder;
  }
}

// Advisory locks on a bigint key are listed with its high half as classid, its low half as objid, and objsubid 1.
const holderQuery = `select a.pid, a.application_name, host(a.client_addr) as client_address, a.backend_start, a.state
  from pg_locks l join pg_stat_activity a on a.pid = l.pid
  where l.locktype = 'advisory' and l.granted and l.objsubid = 1
    and l.database = (select oid from pg_database where datname = current_database())
    and (l.classid::bigint << 32 | l.objid::bigint) = $1::bigint
  limit 1`;

interface HolderRow {
  pid: number;
  application_name: string | null;
  client_address: string | null;
  backend_start: Date | null;
  state: string | null;
}

async function holderOf(client: pg.Client): Promise<LockHolder | undefined> {
  const { rows } = await client.query<HolderRow>(holderQuery, [migrationLock]);
  const row = rows[0];
  if (!row) return undefined;
  // backend_start is set for every session this role may see in full (a client backend always has one).
  const visible = row.backend_start !== null;
  return {
    pid: row.pid,
    visible,
    applicationName: row.application_name,
    clientAddress: row.client_address,
    connectedSince: row.backend_start?.toISOString() ?? null,
    state: row.state,
  };
}

/**
 * Runs `run` while holding the lock, on a connection outside the ORM's pool: the migrator needs the pool's connections,
 * and the lock ends with that connection, also when the process holding it dies. Tried every `retryMs` rather than
 * waited for in one `pg_advisory_lock`, so the wait is bounded and the waiting process says every few seconds who it
 * waits for.
 */
export async function withMigrationLock<T>({ url, connectTimeoutMs, waitMs, logger }: LockSettings,
  run: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: connectTimeoutMs, application_name: 'sighting-registry migrate' });
  await client.connect();
  try {
    const started = Date.now();
    let reported = -Infinity;
    while (!(await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked',
      [migrationLock])).rows[0]!.locked) {
      const waited = Date.now() - started;
      if (waited >= waitMs) throw new MigrationLockTimeout(waitMs, await holderOf(client));
      if (waited - reported >= reportMs) {
        reported = waited;
        const holder = await holderOf(client);
        const by = holder ? ` (${describe(holder)})` : '';
        logger.warn({ holder, waitedMs: waited, boundMs: waitMs },
          `waiting for the migration lock another process holds${by}`);
      }
      await delay(retryMs);
    }
    return await run();
  } finally {
    await client.end();
  }
}
