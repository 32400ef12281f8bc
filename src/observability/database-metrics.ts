// The database's metrics: statements and pool waits, the pools' connections, read routing and replicas, readiness.
import { Counter, Gauge, type Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram.ts';
import type { Pool } from 'pg';

export interface PoolMetrics {
  /** Reports a connection pool's counts at every scrape. */
  addPool(name: string, pool: Pool): void;
  /** One statement's duration, by its operation (`select`, `insert`, …). */
  statementTimed(operation: string, target: 'primary' | 'replica', seconds: number): void;
  /** A statement waited this long for a pooled PostgreSQL connection. */
  acquireWaited(seconds: number): void;
  /** A request waited DB_ACQUIRE_TIMEOUT_MS for a pooled connection and got none. */
  acquireTimedOut(target: 'primary' | 'replica'): void;
  /** A new connection of a pool (`primary`, `replica-N`) could not be opened. */
  connectFailed(pool: string): void;
}

/** Statements, pool waits and each pool's connections (`primary`, `replica-N`), reported at every scrape. */
export function poolMetrics(registry: Registry, poolMax: number): PoolMetrics {
  const pools = new Map<string, Pool>();
  const statementDuration = new SeriesHistogram({
    name: 'db_statement_duration_seconds',
    help: 'Time each SQL statement took, pool wait included, by operation (select, insert, …) and the database that ' +
      'ran it.',
    labelNames: ['operation', 'target'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const acquireWait = new SeriesHistogram({
    name: 'db_acquire_wait_seconds',
    help: 'Time each SQL statement waited for a pooled PostgreSQL connection (near 0 while the pool has one idle).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const acquireTimeouts = new Counter({
    name: 'db_acquire_timeouts_total',
    help: 'Requests that waited DB_ACQUIRE_TIMEOUT_MS for a pooled connection and got none (the pool is too small ' +
      'for the load).',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most connections each pool may hold (DB_POOL_MAX).',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() { for (const name of pools.keys()) this.set({ pool: name }, poolMax); },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by pool (primary, replica-N) and state: used, idle, and requests waiting for ' +
      'one.',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      for (const [name, pool] of pools) {
        this.set({ pool: name, state: 'used' }, pool.totalCount - pool.idleCount);
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
      }
    },
  });
  const connectFailures = new Counter({
    name: 'db_connection_errors_total',
    help: 'New PostgreSQL connections that could not be opened (refused, timed out, authentication failed), by pool.',
    labelNames: ['pool'] as const,
    registers: [registry],
  });

  return {
    addPool: (name, pool) => { pools.set(name, pool); },
    statementTimed: (operation, target, seconds) => statementDuration.observe(seconds, operation, target),
    acquireWaited: (seconds) => acquireWait.observe(seconds),
    acquireTimedOut: (target) => acquireTimeouts.inc({ target }),
    connectFailed: (pool) => connectFailures.inc({ pool }),
  };
}

export interface ReplicaMetrics {
  /** Counts one routed read of a kind (`list`, `record`, …: src/db/read-routing.ts). */
  readRouted(kind: string, target: 'primary' | 'replica'): void;
  replicaFailed(): void;
  /** The replay lag of replica `index` (0-based), in milliseconds; NaN while it cannot be measured. */
  replicaLag(index: number, lagMs: number): void;
}

/** Where reads went (primary or replica), the replicas' failures and their replay lag. */
export function replicaMetrics(registry: Registry): ReplicaMetrics {
  const reads = new Counter({
    name: 'db_reads_routed_total',
    help: 'Reads by what they are for (list, query, …) and the connection that answered: primary or replica.',
    labelNames: ['kind', 'target'] as const,
    registers: [registry],
  });
  const replicaFailures = new Counter({
    name: 'db_replica_failures_total',
    help: 'Reads a replica could not answer; each sends reads to the primary for REPLICA_RETRY_MS.',
    registers: [registry],
  });
  const replicaLag = new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'How far each replica\'s replay is behind (0 when it has replayed all it received); absent while it cannot ' +
      'be measured.',
    labelNames: ['replica'] as const,
    registers: [registry],
  });

  return {
    readRouted: (kind, target) => reads.inc({ kind, target }),
    replicaFailed: () => replicaFailures.inc(),
    replicaLag: (index, lagMs) => {
      if (Number.isNaN(lagMs)) replicaLag.remove({ replica: `replica-${index + 1}` });
      else replicaLag.set({ replica: `replica-${index + 1}` }, lagMs / 1000);
    },
  };
}

export interface ReadinessMetrics {
  /** A readiness check's answer: whether the database answered, and its migrations when it did (readiness.ts). */
  databaseObserved(up: boolean, migrations?: { expected: string; current: boolean; applied: number }): void;
}

/** What the last readiness check saw of the database: up or not, and its migrations. */
export function readinessMetrics(registry: Registry): ReadinessMetrics {
  const databaseUp = new Gauge({
    name: 'db_up',
    help: 'Whether the database answered the last readiness check (1) or not (0); absent before the first check.',
    registers: [registry],
  });
  const migrations = new Gauge({
    name: 'db_migrations_applied',
    help: 'Migrations the database has applied, as of the last readiness check; `expected` names this build\'s ' +
      'newest, `current` says whether it is applied.',
    labelNames: ['expected', 'current'] as const,
    registers: [registry],
  });

  return {
    databaseObserved: (up, state) => {
      databaseUp.set(up ? 1 : 0);
      if (!state) return;
      migrations.reset();
      migrations.set({ expected: state.expected, current: String(state.current) }, state.applied);
    },
  };
}
