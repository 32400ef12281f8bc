// Builds the express application: documents and health open, the collections behind token and contract checks.
import express, { type Express } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config/config.ts';
import { requestValidator } from '../validation/request-validator.ts';
import { errorHandler } from '../http/error-handler.ts';
import { pathNotFound } from '../errors/refusals.ts';
import { tokenCheck, type TokenCheck } from '../auth/token-check.ts';
import { mountApiOperations } from './api-operations.ts';
import type { AppServices } from './app-services.ts';
import { managementRouter } from '../management/management.ts';
import { docsRouter } from './docs.ts';
import { webPageRouter } from './web-page.ts';
import { mountAuthorizationServer } from './authorization-server.ts';
import type { Logger } from '../observability/logger.ts';
import { requestObservation } from '../observability/request-observation.ts';
import { compressAnswers } from '../http/compression.ts';
import { apiVersionHeader } from '../http/api-version.ts';
import { handlerChain } from '../http/handler-chain.ts';

export async function createApp(config: Config, orm: MikroORM, services: AppServices): Promise<Express> {
  const { logger, metrics, state, streamShare } = services;
  const app = express();
  // First, so every answer is timed and logged, including the ones refused before any route. One layer of the router
  // for both: each layer it passes costs a request more than either step.
  app.use(handlerChain([requestObservation(logger, metrics, config.BASE_PATH), apiVersionHeader]));
  app.disable('x-powered-by');
  // ETags are record versions, set by the handlers; express's body hashes would contradict them.
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Read by every streamed answer (src/http/bounded-writes.ts).
  app.locals.streamWriteTimeoutMs = config.STREAM_WRITE_TIMEOUT_MS;
  // Read by every whole list (src/crud/read/read-handlers.ts).
  app.locals.streamShare = streamShare;
  // Read by the error handler: a failure of the closing pool is the instance stopping (src/http/stopping.ts).
  app.locals.stopping = state.stopping;

  // Mounted before the open routes, filled below: an API request is resolved once, and tries no other router's routes.
  const api = express.Router();
  app.use(config.BASE_PATH, api);
  // Everything else (documents, the web page's settings; files already compressed pass as they are) may be compressed.
  app.use(compressAnswers());
  const validation = requestValidator(config.BASE_PATH);
  // Meanwhile the validator loads its document: the embedded provider makes its key on another thread.
  const authServerUrl = await mountAuthorizationServer(app, config);
  const realmUrl = `${authServerUrl}/realms/${config.KEYCLOAK_REALM}`;
  // With a management port of their own, health and metrics are not on the public one.
  if (config.MANAGEMENT_PORT === undefined) app.use(managementRouter(config, orm, metrics, state));
  app.use(docsRouter({
    publicUrl: config.PUBLIC_URL && config.publicUrl, basePath: config.BASE_PATH, realmUrl,
    implicitFlow: Boolean(config.KEYCLOAK_URL),
  }));

  const tokens = realmTokens(app, config, authServerUrl, logger);
  mountApiOperations(api, config, orm, services, { tokens, validation });
  // After the API: its static files must never be looked up for an API path.
  app.use(webPageRouter({ apiPath: config.BASE_PATH, issuer: realmUrl }));

  app.use((_req, _res) => { throw pathNotFound(); });
  app.use(errorHandler);
  return app;
}

/** The bearer token's check against the realm's keys, which the start, the stop and readiness reach through locals. */
function realmTokens(app: Express, config: Config, serverUrl: string, logger: Logger): TokenCheck {
  const tokens = tokenCheck({
    serverUrl,
    realm: config.KEYCLOAK_REALM,
    audience: config.TOKEN_AUDIENCE,
    refreshMs: config.REALM_KEYS_REFRESH_MS,
    fetchTimeoutMs: config.REALM_KEYS_FETCH_TIMEOUT_MS,
    minFetchIntervalMs: config.REALM_KEYS_MIN_FETCH_INTERVAL_MS,
    logger,
  });
  // Called by startWebServer once the embedded provider (on this very server) can answer, and by stopWebServer.
  app.locals.prefetchRealmKeys = tokens.startKeys;
  app.locals.stopRealmKeys = tokens.stopKeys;
  // Readiness reports the key store's own state (src/management/health.ts): no fetch of its own per probe.
  app.locals.realmKeysReachable = tokens.keysReachable;
  return tokens;
}
