// Starts and stops the whole service, so tests run the real thing in-process on an ephemeral port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config.ts';
import { openDatabase } from './db/orm.ts';
import { ReadRouter } from './db/read-routing.ts';
import { createApp } from './app.ts';
import { createLogger, type DestinationStream, type Logger } from './observability/logger.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';

export interface WebServer {
  url: string;
  config: Config;
  orm: MikroORM;
  server: Server;
  logger: Logger;
  metrics: Metrics;
}

export interface StartOptions {
  /** Where log lines go instead of standard output (tests read them). */
  logDestination?: DestinationStream;
}

export async function startWebServer(config: Config, options: StartOptions = {}): Promise<WebServer> {
  const logger = createLogger(config, options.logDestination);
  const metrics = createMetrics();
  const router = new ReadRouter(config.DATABASE_REPLICA_URLS.length, config.REPLICA_RETRY_MS, {
    routed: metrics.readRouted,
    replicaFailed: (error) => {
      metrics.replicaFailed();
      logger.warn({ err: error }, `a read replica failed; reads go to the primary for ${config.REPLICA_RETRY_MS} ms`);
    },
  });
  const orm = await openDatabase(config, { logger, router, onPool: metrics.addPool });
  const server = createServer({ requestTimeout: 30_000 });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.PORT, config.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  // With PORT=0 the origin is known only now, and the embedded provider's issuer is built from it.
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const publicUrl = config.PUBLIC_URL ? config.publicUrl : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const resolved = { ...config, PORT: port, publicUrl };
  server.on('request', await createApp(resolved, orm, { logger, metrics, router }));
  return { url: publicUrl, config: resolved, orm, server, logger, metrics };
}

/** Stops accepting, lets in-flight requests finish (up to the timeout), then closes the pool. */
export async function stopWebServer({ server, orm, config, logger }: WebServer): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timeout = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
  await closed;
  clearTimeout(timeout);
  await orm.close(true);
  logger.flush();
}
