// Starts and stops the whole service, so tests run the real thing in-process on an ephemeral port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/core';
import type { Express, Request, Response } from 'express';
import type { Config } from './config.ts';
import { openServiceDatabase } from './service-database.ts';
import { ReadRouting } from './db/read-routing.ts';
import { createApp } from './app.ts';
import { lastResort } from './http/error-handler.ts';
import { answerClientError, answerConnect } from './http/client-errors.ts';
import { answerStarting } from './http/starting.ts';
import { drainable, type Drain } from './http/drain.ts';
import { startChangeFeed } from './feed/start-change-feed.ts';
import { StreamShare } from './db/stream-share.ts';
import { createLogger, type DestinationStream, type Logger } from './observability/logger.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { managementApp, managementRouter } from './management.ts';
import { ReplicaLag } from './db/replica-lag.ts';
import type { DatabaseState } from './readiness.ts';
import { expectedMigration } from './db/migration-state.ts';
import { keepStatisticsFresh, type StatisticsKeeper } from './db/pglite-statistics.ts';
import { answerStopping } from './http/stopping.ts';

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
  const server = createServer({
    maxHeaderSize: config.HEADER_LIMIT,
    // A client that sends its header or its request slowly (slowloris) holds a connection only this long, then gets
    // a 408. Node checks the bounds every `connectionsCheckingInterval` (30 s by default, which held them 40 s).
    headersTimeout: config.HEADERS_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1000, config.HEADERS_TIMEOUT_MS),
  });
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  // A client that half-closes after its request (shutdown(SHUT_WR)) still gets its answer; node's default aborts
  // the request at the client's FIN, so any handler slower than that FIN would answer no one.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  const drain = drainable(server, answerStopping);
  // The ports open before the database: a process that waits for another's migration lock (up to
  // MIGRATE_LOCK_TIMEOUT_MS) is alive and says it is starting. Once the application is mounted below, it answers.
  let answer: (req: IncomingMessage, res: ServerResponse) => void =
    answerStarting({ health: config.MANAGEMENT_PORT === undefined });
  server.on('request', (req, res) => answer(req, res));
  let answerManagement: (req: IncomingMessage, res: ServerResponse) => void = answerStarting({ health: true });
  const management = config.MANAGEMENT_PORT === undefined ? undefined
    : createServer((req, res) => answerManagement(req, res));
  const closePorts = async () => {
    for (const open of [server, management]) if (open?.listening) await new Promise((resolve) => open.close(resolve));
  };
  try {
    await listen(server, config.PORT, config.HOST);
    if (management) await listen(management, config.MANAGEMENT_PORT!, config.HOST);
  } catch (error) {
    await closePorts();
    throw error;
  }
  const orm = await openServiceDatabase(config, { logger, readRouting, onPool: metrics.addPool,
    onConnectFailed: metrics.connectFailed, onStatement: metrics.statementTimed,
    onAcquireWait: metrics.acquireWaited }).catch(async (error: unknown) => {
    await closePorts();
    throw error;
  });
  replicaLag.start();
  const statistics = config.DATABASE_URL ? undefined : keepStatisticsFresh(orm, logger);
  // One share of the pool for every streamed read: whole lists and the feed's catch-up together.
  const streamShare = StreamShare.of(config);
  metrics.addStreamShare(streamShare);
  const feedStarted = await startChangeFeed(orm, config, logger, streamShare).catch(async (error: unknown) => {
    await closePorts();
    await statistics?.stop();
    await orm.close(true);
    await replicaLag.stop();
    throw error;
  });
  const { feed, stop: stopFeed } = feedStarted;
  metrics.addFeed(feed);
  if (config.DATABASE_URL) metrics.addFeedListener(feedStarted.listening);
  const { port } = server.address() as AddressInfo;
  // With PORT=0 the origin is known only now, and the embedded provider's issuer is built from it.
  const originAt = (listening: number) => originOf(config.HOST, listening);
  const publicUrl = config.PUBLIC_URL ? config.publicUrl : originAt(port);
  const resolved = { ...config, PORT: port, publicUrl };
  const web = { url: publicUrl, stopFeed, config: resolved, orm, server, drain, replicaLag, statistics, logger, metrics,
    stopping: false } as WebServer;
  if (management) web.management = { server: management, url: originAt((management.address() as AddressInfo).port) };
  // Known once the application is built (the embedded provider's URL comes with it); read by readiness.
  const realm: { keysReachable?: () => boolean } = {};
  const state = {
    stopping: () => web.stopping,
    realmKeysReachable: () => realm.keysReachable?.() ?? false,
    feedListening: feedStarted.listening,
    observed: (db: DatabaseState) => metrics.databaseObserved(db.database === 'UP', db.applied === undefined
      ? undefined : { expected: expectedMigration, current: db.migrations === 'UP', applied: db.applied }),
  };
  const closeAll = async () => {
    // A service that cannot start leaves nothing open behind it.
    await stopFeed();
    await closePorts();
    await statistics?.stop();
    await orm.close(true);
    await replicaLag.stop();
  };
  const app = await createApp(resolved, orm, { logger, metrics, readRouting, state, feed, drain,
    streamShare }).catch(async (error: unknown) => {
    await closeAll();
    throw error;
  });
  realm.keysReachable = app.locals.realmKeysReachable as () => boolean;
  if (management) answerManagement = managementApp(managementRouter(resolved, orm, metrics, state));
  // The app's last handler answers every error; should even that fail, express's final handler must not answer.
  answer = (req, res) => app(req as Request, res as Response, (error?: unknown) => lastResort(res, error));
  web.app = app;
  // The realm's keys before the first request is let in (health/ready included), so no valid token is refused.
  await (app.locals.prefetchRealmKeys as () => Promise<void>)().catch((error: unknown) => {
    logger.warn({ err: error }, 'the realm\'s signing keys could not be fetched yet; the first token will fetch them');
  });
  return web;
}

/** Where reads go (primary or a replica) and how far each replica is behind, both counted in the metrics. */
function replicaReads(config: Config, metrics: Metrics,
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

/** The origin a listener on `host` and `port` is reached at: a wildcard address is reached as localhost. */
function originOf(host: string, port: number): string {
  const reached = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${reached.includes(':') ? `[${reached}]` : reached}:${port}`;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => {
    server.off('error', reject);
    resolve();
  }));
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
