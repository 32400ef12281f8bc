// The service's Prometheus metrics (prom-client): requests and the process here; the database's
// (src/observability/database-metrics.ts) and the long answers' (src/observability/stream-metrics.ts) beside.
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { SeriesHistogram } from './series-histogram.ts';
import packageJson from '../../package.json' with { type: 'json' };
import {
  poolMetrics, readinessMetrics, replicaMetrics, type PoolMetrics, type ReadinessMetrics, type ReplicaMetrics,
} from './database-metrics.ts';
import { streamMetrics, type StreamMetrics } from './stream-metrics.ts';

export interface RequestMetrics {
  registry: Registry;
  requestDuration: SeriesHistogram<'method' | 'route' | 'status'>;
  requestsInFlight: Gauge;
  /** A request used a deprecated operation, parameter or property (`element`) of the contract. */
  deprecatedUsed(route: string, method: string, element: string): void;
}

export type Metrics = RequestMetrics & PoolMetrics & ReplicaMetrics & ReadinessMetrics & StreamMetrics;

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
  new Gauge({
    name: 'sighting_registry_build_info',
    help: 'Always 1; the labels say which build runs: the package version, the commit it was built from, the Node.js ' +
      'version.',
    labelNames: ['version', 'commit', 'node'] as const,
    registers: [registry],
  }).set({ version: packageJson.version, commit: commit ?? 'unknown', node: process.version }, 1);
  const requestDuration = new SeriesHistogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request\'s arrival to its answer\'s end, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requestsInFlight = new Gauge({ name: 'http_requests_in_flight', help: 'Requests being answered now.',
    registers: [registry] });
  const deprecatedUses = new Counter({
    name: 'api_deprecated_uses_total',
    help: 'Requests that used a deprecated part of the contract, by route template, method and element (operation, ' +
      '`query <name>`, `property <name>`): who still has to move before its sunset.',
    labelNames: ['route', 'method', 'element'] as const,
    registers: [registry],
  });

  return {
    registry,
    requestDuration,
    requestsInFlight,
    deprecatedUsed: (route, method, element) => deprecatedUses.inc({ route, method, element }),
    ...poolMetrics(registry, poolMax),
    ...replicaMetrics(registry),
    ...readinessMetrics(registry),
    ...streamMetrics(registry),
  };
}
