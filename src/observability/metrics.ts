// The service's Prometheus metrics (prom-client): requests, database pools, replica routing, the process.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Pool } from 'pg';
import packageJson from '../../package.json' with { type: 'json' };

export interface Metrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  requestsInFlight: Gauge;
  /** Counts one routed read of a kind (`list`, `record`, …: src/db/read-routing.ts). */
  readRouted(kind: string, target: 'primary' | 'replica'): void;
  replicaFailed(): void;
  /** Reports a connection pool's counts at every scrape. */
  addPool(name: string, pool: Pool): void;
  /** One statement's duration, by its operation (`select`, `insert`, …). */
  statementTimed(operation: string, target: 'primary' | 'replica', seconds: number): void;
  /** A statement waited this long for a pooled PostgreSQL connection. */
  acquireWaited(seconds: number): void;
  /** A request waited DB_ACQUIRE_TIMEOUT_MS for a pooled connection and got none. */
  acquireTimedOut(target: 'primary' | 'replica'): void;
  /** The replay lag of replica `index` (0-based), in milliseconds; NaN while it cannot be measured. */
  replicaLag(index: number, lagMs: number): void;
  /** Reports the places of the pool's share for streamed reads, held and waited for, at every scrape. */
  addStreamShare(share: { readonly held: number; readonly waiting: number }): void;
  /** Reports the change feed's open streams at every scrape. */
  addFeed(feed: { readonly subscribers: number }): void;
  /** One change-feed event was written to a stream. */
  eventDelivered(): void;
  /** A new connection of a pool (`primary`, `replica-N`) could not be opened. */
  connectFailed(pool: string): void;
  /** A readiness check's answer: whether the database answered, and its migrations when it did (src/readiness.ts). */
  databaseObserved(up: boolean, migrations?: { expected: string; current: boolean; applied: number }): void;
  /** Reports whether the change feed's LISTEN session is connected at every scrape (PostgreSQL only). */
  addFeedListener(listening: () => boolean | undefined): void;
  /** A request used a deprecated operation, parameter or property (`element`) of the contract. */
  deprecatedUsed(route: string, method: string, element: string): void;
}

export interface MetricsSettings {
  /** DB_POOL_MAX: each pool's most connections. */
  poolMax: number;
  /** BUILD_COMMIT, when the build recorded it. */
  commit?: string;
}

/** One registry per service instance, so instances in one process (the tests) keep their own counts. */
export function createMetrics({ poolMax, commit }: MetricsSettings): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const pools = new Map<string, Pool>();

  new Gauge({
    name: 'sighting_registry_build_info',
    help: 'Always 1; the labels say which build runs: the package version, the commit it was built from, the Node.js version.',
    labelNames: ['version', 'commit', 'node'] as const,
    registers: [registry],
  }).set({ version: packageJson.version, commit: commit ?? 'unknown', node: process.version }, 1);
  const statementDuration = new Histogram({
    name: 'db_statement_duration_seconds',
    help: 'Time each SQL statement took, pool wait included, by operation (select, insert, …) and the database that ran it.',
    labelNames: ['operation', 'target'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const acquireWait = new Histogram({
    name: 'db_acquire_wait_seconds',
    help: 'Time each SQL statement waited for a pooled PostgreSQL connection (near 0 while the pool has one idle).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const acquireTimeouts = new Counter({
    name: 'db_acquire_timeouts_total',
    help: 'Requests that waited DB_ACQUIRE_TIMEOUT_MS for a pooled connection and got none (the pool is too small for the load).',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  const replicaLag = new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'How far each replica\'s replay is behind (0 when it has replayed all it received); absent while it cannot be measured.',
    labelNames: ['replica'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most connections each pool may hold (DB_POOL_MAX).',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() { for (const name of pools.keys()) this.set({ pool: name }, poolMax); },
  });

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

  let share: { readonly held: number; readonly waiting: number } | undefined;
  new Gauge({
    name: 'streamed_reads',
    help: 'Streamed reads (whole lists, queries by example, the change feed\'s catch-up) holding a place of the pool\'s share (STREAM_POOL_SHARE), and waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'holding' }, share?.held ?? 0);
      this.set({ state: 'waiting' }, share?.waiting ?? 0);
    },
  });
  let feed: { readonly subscribers: number } | undefined;
  new Gauge({
    name: 'change_feed_streams',
    help: 'Change-feed streams (GET /{resource}/events) this instance holds open.',
    registers: [registry],
    collect() { this.set(feed?.subscribers ?? 0); },
  });
  const eventsDelivered = new Counter({ name: 'change_feed_events_delivered_total', help: 'Change-feed events written to streams.', registers: [registry] });
  const deprecatedUses = new Counter({
    name: 'api_deprecated_uses_total',
    help: 'Requests that used a deprecated part of the contract, by route template, method and element (operation, `query <name>`, `property <name>`): who still has to move before its sunset.',
    labelNames: ['route', 'method', 'element'] as const,
    registers: [registry],
  });

  const connectFailures = new Counter({
    name: 'db_connection_errors_total',
    help: 'New PostgreSQL connections that could not be opened (refused, timed out, authentication failed), by pool.',
    labelNames: ['pool'] as const,
    registers: [registry],
  });
  const databaseUp = new Gauge({
    name: 'db_up',
    help: 'Whether the database answered the last readiness check (1) or not (0); absent before the first check.',
    registers: [registry],
  });
  const migrations = new Gauge({
    name: 'db_migrations_applied',
    help: 'Migrations the database has applied, as of the last readiness check; `expected` names this build\'s newest, `current` says whether it is applied.',
    labelNames: ['expected', 'current'] as const,
    registers: [registry],
  });
  // Made with the listener: PGlite wakes its feed in-process and has none, so the series is absent there.
  const addFeedListener = (listening: () => boolean | undefined) => {
    new Gauge({
      name: 'change_feed_listener_up',
      help: 'Whether the change feed\'s LISTEN session is connected (1) or reconnecting while the feed polls (0); absent on PGlite.',
      registers: [registry],
      collect() { this.set(listening() ? 1 : 0); },
    });
  };

  return {
    registry,
    connectFailed: (pool) => connectFailures.inc({ pool }),
    databaseObserved: (up, state) => {
      databaseUp.set(up ? 1 : 0);
      if (!state) return;
      migrations.reset();
      migrations.set({ expected: state.expected, current: String(state.current) }, state.applied);
    },
    addFeedListener,
    requestDuration,
    requestsInFlight,
    readRouted: (kind, target) => reads.inc({ kind, target }),
    replicaFailed: () => replicaFailures.inc(),
    addPool: (name, pool) => { pools.set(name, pool); },
    statementTimed: (operation, target, seconds) => statementDuration.observe({ operation, target }, seconds),
    acquireWaited: (seconds) => acquireWait.observe(seconds),
    acquireTimedOut: (target) => acquireTimeouts.inc({ target }),
    addStreamShare: (streamShare) => { share = streamShare; },
    addFeed: (changeFeed) => { feed = changeFeed; },
    eventDelivered: () => eventsDelivered.inc(),
    deprecatedUsed: (route, method, element) => deprecatedUses.inc({ route, method, element }),
    replicaLag: (index, lagMs) => {
      if (Number.isNaN(lagMs)) replicaLag.remove({ replica: `replica-${index + 1}` });
      else replicaLag.set({ replica: `replica-${index + 1}` }, lagMs / 1000);
    },
  };
}
