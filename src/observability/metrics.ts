// The service's Prometheus metrics (prom-client): requests, database pools, replica routing, the process.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Pool } from 'pg';
import type { ReadKind } from '../db/read-routing.ts';

export interface Metrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  requestsInFlight: Gauge;
  /** Counts one routed read. */
  readRouted(kind: ReadKind, target: 'primary' | 'replica'): void;
  replicaFailed(): void;
  /** Reports a connection pool's counts at every scrape. */
  addPool(name: string, pool: Pool): void;
}

/** One registry per service instance, so instances in one process (the tests) keep their own counts. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const pools = new Map<string, Pool>();

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request\'s arrival to its answer\'s end, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requestsInFlight = new Gauge({ name: 'http_requests_in_flight', help: 'Requests being answered now.', registers: [registry] });
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
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by pool (primary, replica-N) and state: used, idle, and requests waiting for one.',
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

  return {
    registry,
    requestDuration,
    requestsInFlight,
    readRouted: (kind, target) => reads.inc({ kind, target }),
    replicaFailed: () => replicaFailures.inc(),
    addPool: (name, pool) => { pools.set(name, pool); },
  };
}
