// Starts and stops the whole service, so tests run the real thing in-process on an ephemeral port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/core';
import type { Express } from 'express';
import type { Config } from '../config/config.ts';
import { openServiceDatabase } from './service-database.ts';
import type { Drain } from '../http/drain.ts';
import { startChangeFeed } from '../feed/start-change-feed.ts';
import { StreamShare } from '../db/stream-share.ts';
import { createLogger, type DestinationStream, type Logger } from '../observability/logger.ts';
import { createMetrics, type Metrics } from '../observability/metrics.ts';
import type { ReplicaLag } from '../db/replica-lag.ts';
import { keepStatisticsFresh, type StatisticsKeeper } from '../db/pglite-statistics.ts';
import { openPorts, type ServicePorts } from './service-ports.ts';
import { replicaReads } from './replica-reads.ts';
import { mountApplication } from './mount-application.ts';

export interface WebServer {
  url: string;
  /** Ends the change feed's notifications and polling (its streams end with the drain). */
  stopFeed(): Promise<void>;
  config: Config;
  orm: MikroORM;
  server: Server;
  /** The management port's server, when MANAGEMENT_PORT is set. */
  management?: { server: Server; url: string };
  drain: Drain;
  replicaLag: ReplicaLag;
  /** On PGlite, which has no autovacuum: the planner's statistics kept fresh by the service. */
  statistics?: StatisticsKeeper;
  /** True once a stop has begun. */
  stopping: boolean;
  logger: Logger;
  metrics: Metrics;
  /** The express application, once built (tests count its routers' work through their public `stack`). */
  app?: Express;
}

export interface StartOptions {
  /** Where log lines go instead of standard output (tests read them). */
  logDestination?: DestinationStream;
}

export async function startWebServer(config: Config, options: StartOptions = {}): Promise<WebServer> {
  const logger = createLogger(config, options.logDestination);
  const metrics = createMetrics({ poolMax: config.DB_POOL_MAX, commit: config.BUILD_COMMIT });
  const { replicaLag, readRouting } = replicaReads(config, metrics, logger);
  // The ports open before the database, saying the service is starting; once the application is mounted, it answers.
  const ports = await openPorts(config);
  const orm = await openServiceDatabase(config, { logger, readRouting, onPool: metrics.addPool,
    onConnectFailed: metrics.connectFailed, onStatement: metrics.statementTimed,
    onAcquireWait: metrics.acquireWaited }).catch(closingFirst(ports.close));
  replicaLag.start();
  const statistics = config.DATABASE_URL ? undefined : keepStatisticsFresh(orm, logger);
  const closeDatabase = async () => {
    await statistics?.stop();
    await orm.close(true);
    await replicaLag.stop();
  };
  // One share of the pool for every streamed read: whole lists and the feed's catch-up together.
  const streamShare = StreamShare.of(config);
  metrics.addStreamShare(streamShare);
  const feedStarted = await startChangeFeed(orm, config, logger, streamShare).catch(closingFirst(async () => {
    await ports.close();
    await closeDatabase();
  }));
  metrics.addFeed(feedStarted.feed);
  if (config.DATABASE_URL) metrics.addFeedListener(feedStarted.listening);
  const web: WebServer = { ...addresses(config, ports), stopFeed: feedStarted.stop, orm, server: ports.server,
    drain: ports.drain, replicaLag, statistics, logger, metrics, stopping: false };
  web.app = await mountApplication(ports, { config: web.config, orm, logger, metrics, readRouting,
    feed: feedStarted.feed, feedListening: feedStarted.listening, drain: ports.drain, streamShare,
    stopping: () => web.stopping }).catch(closingFirst(async () => {
    await feedStarted.stop();
    await ports.close();
    await closeDatabase();
  }));
  // The realm's keys before the first request is let in (health/ready included), so no valid token is refused.
  await (web.app.locals.prefetchRealmKeys as () => Promise<void>)().catch((error: unknown) => {
    logger.warn({ err: error }, 'the realm\'s signing keys could not be fetched yet; the first token will fetch them');
  });
  return web;
}

/** A rejection handler that first closes what the start opened so far: a failed start leaves nothing open. */
function closingFirst(close: () => Promise<void>): (error: unknown) => Promise<never> {
  return async (error) => {
    await close();
    throw error;
  };
}

/** The service's URLs once its ports listen: with PORT=0 the port is known only now. */
function addresses(config: Config, ports: ServicePorts): Pick<WebServer, 'url' | 'config' | 'management'> {
  const originAt = (server: Server) => originOf(config.HOST, (server.address() as AddressInfo).port);
  const { port } = ports.server.address() as AddressInfo;
  // The embedded provider's issuer is built from the public URL.
  const publicUrl = config.PUBLIC_URL ? config.publicUrl : originAt(ports.server);
  const { management } = ports;
  return { url: publicUrl, config: { ...config, PORT: port, publicUrl },
    ...management && { management: { server: management, url: originAt(management) } } };
}

/** The origin a listener on `host` and `port` is reached at: a wildcard address is reached as localhost. */
function originOf(host: string, port: number): string {
  const reached = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${reached.includes(':') ? `[${reached}]` : reached}:${port}`;
}

/**
 * Stops in the order balancers need: readiness says 503 and every answer `Connection: close` at once; the listener
 * still accepts for `delayMs` (the balancer's time to notice); then it stops accepting, long-lived answers end, idle
 * connections close and in-flight requests finish (up to the timeout); then the pool closes. Says how many were cut.
 */
export async function stopWebServer(web: WebServer,
  { delayMs = 0 }: { delayMs?: number } = {}): Promise<{ cut: number }> {
  const { drain, orm, config, logger, management, replicaLag, statistics } = web;
  web.stopping = true;
  drain.announce();
  if (delayMs > 0) await delay(delayMs);
  const result = await drain.stop(config.SHUTDOWN_TIMEOUT_MS);
  (web.app?.locals.stopRealmKeys as (() => void) | undefined)?.();
  await web.stopFeed();
  await statistics?.stop();
  if (management) {
    management.server.closeIdleConnections();
    await new Promise((resolve) => management.server.close(resolve));
  }
  // Closing the pools waits for their connections, and one stalled by a cut network never ends: the stop is bounded
  // too.
  const closed = await Promise.race([Promise.all([orm.close(true), replicaLag.stop()]).then(() => true),
    delay(config.SHUTDOWN_TIMEOUT_MS, false, { ref: false })]);
  if (!closed) logger.warn(
    `the database pool did not close within ${config.SHUTDOWN_TIMEOUT_MS} ms; stopping without it`);
  logger.flush();
  return result;
}
