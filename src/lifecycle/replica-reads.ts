// Where the service's reads go, the primary or a replica, and how far each replica is behind.
import type { Config } from '../config/config.ts';
import { ReadRouting } from '../db/read-routing.ts';
import { ReplicaLag } from '../db/replica-lag.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';

/** The read routing and the replicas' lag, both counted in the metrics. */
export function replicaReads(config: Config, metrics: Metrics,
  logger: Logger): { replicaLag: ReplicaLag; readRouting: ReadRouting } {
  const replicaLag = new ReplicaLag({
    urls: config.DATABASE_REPLICA_URLS, intervalMs: 1000, connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
      measured: metrics.replicaLag,
  });
  const readRouting = new ReadRouting(config.DATABASE_REPLICA_URLS.length, config.REPLICA_RETRY_MS, {
    routed: metrics.readRouted,
    replicaFailed: (error) => {
      metrics.replicaFailed();
      logger.warn({ err: error }, `a read replica failed; reads go to the primary for ${config.REPLICA_RETRY_MS} ms`);
    },
    replicaAcquireTimedOut: () => metrics.acquireTimedOut('replica'),
    replicasBehind: () => replicaLag.anyBehind(config.DB_REPLICA_MAX_LAG_MS),
  });
  return { replicaLag, readRouting };
}
