// The application on the service's ports, once its database and change feed are open, and the readiness it reports.
import type { Express, Request, Response } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config/config.ts';
import { createApp } from '../app/app.ts';
import type { AppServices } from '../app/app-services.ts';
import { lastResort } from '../http/error-handler.ts';
import { managementApp, managementRouter, type ManagementState } from '../management/management.ts';
import type { DatabaseState } from '../management/readiness.ts';
import { expectedMigration } from '../db/migration-state.ts';
import type { ServicePorts } from './service-ports.ts';

/** What the application is built from: the services `createApp` takes, and what its readiness state reads. */
export interface ApplicationParts extends Omit<AppServices, 'state'> {
  /** The settings with the port and public URL the service listens at. */
  config: Config;
  orm: MikroORM;
  /** True once a stop has begun. */
  stopping(): boolean;
  feedListening(): boolean | undefined;
}

/** Builds the application and lets the ports answer with it, the management port with its own. */
export async function mountApplication(ports: ServicePorts, parts: ApplicationParts): Promise<Express> {
  const { config, orm, logger, metrics, readRouting, feed, drain, streamShare } = parts;
  // Known once the application is built (the embedded provider's URL comes with it); read by readiness.
  const realm: { keysReachable?: () => boolean } = {};
  const state = readinessState(parts, () => realm.keysReachable?.() ?? false);
  const app = await createApp(config, orm, { logger, metrics, readRouting, state, feed, drain, streamShare });
  realm.keysReachable = app.locals.realmKeysReachable as () => boolean;
  const management = ports.management ? managementApp(managementRouter(config, orm, metrics, state)) : undefined;
  // The app's last handler answers every error; should even that fail, express's final handler must not answer.
  ports.mount((req, res) => app(req as Request, res as Response, (error?: unknown) => lastResort(res, error)),
    management);
  return app;
}

/** What readiness reads of the instance; each database state it observes is counted in the metrics. */
function readinessState({ stopping, feedListening, metrics }: ApplicationParts,
  realmKeysReachable: () => boolean): ManagementState {
  return {
    stopping,
    realmKeysReachable,
    feedListening,
    observed: (db: DatabaseState) => metrics.databaseObserved(db.database === 'UP', db.applied === undefined
      ? undefined : { expected: expectedMigration, current: db.migrations === 'UP', applied: db.applied }),
  };
}
