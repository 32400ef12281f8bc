// What orchestrators and scrapers ask (health, metrics): on the public port, or alone on MANAGEMENT_PORT.
import express, { Router, type Express } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config/config.ts';
import type { Metrics } from '../observability/metrics.ts';
import { healthRouter, type HealthState } from './health.ts';
import { metricsRouter } from '../observability/metrics-router.ts';
import { apiVersionHeader } from '../http/api-version.ts';

/** What readiness reads of the running instance (src/management/health.ts). */
export type ManagementState = HealthState;

export function managementRouter(config: Config, orm: MikroORM, metrics: Metrics, state: ManagementState): Router {
  return Router().use('/health', healthRouter(orm, state)).use(metricsRouter(metrics, config.METRICS_TOKEN));
}

/** The management port's own application: nothing but health and metrics, never the API or the web page. */
export function managementApp(router: Router): Express {
  const app = express();
  app.disable('x-powered-by');
  // Every answer of the service names its contract release (docs/contract-releases.md#versions), this port's too.
  app.use(apiVersionHeader, router);
  app.use((_req, res) => { res.status(404).json({ general: 'Not found.' }); });
  return app;
}
