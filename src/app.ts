// Builds the express application: documents and health open, the collections behind token and contract checks.
import express, { type Express } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config.ts';
import { requestValidator } from './validation/request-validator.ts';
import { queryIntegers } from './validation/query-integers.ts';
import { negotiate } from './http/negotiation.ts';
import { bodyParsers } from './http/body-parsers.ts';
import { errorHandler } from './http/error-handler.ts';
import { bodySlots } from './http/body-slots.ts';
import { pathNotFound } from './errors/refusals.ts';
import { entityManagerPerRequest } from './db/request-context.ts';
import { operationDispatch, type OperationHandlers } from './crud/operation-dispatch.ts';
import { readHandlers } from './crud/read-handlers.ts';
import { writeHandlers } from './crud/write-handlers.ts';
import type { AnyResource } from './crud/resource-descriptor.ts';
import { historyHandlers } from './history/history-handlers.ts';
import { eventStreams } from './feed/event-stream.ts';
import type { ChangeFeed } from './feed/change-feed.ts';
import { StreamSlots } from './feed/stream-slots.ts';
import { memoryAfterPeaks } from './memory-after-peaks.ts';
import type { StreamShare } from './db/stream-share.ts';
import type { Drain } from './http/drain.ts';
import { idempotencyKey } from './http/idempotency-key.ts';
import { rateLimit } from './http/rate-limit.ts';
import { cors } from './http/cors.ts';
import { resources } from './resources/index.ts';
import { tokenCheck } from './auth/token-check.ts';
import { roleCheck } from './auth/role-check.ts';
import { managementRouter, type ManagementState } from './management.ts';
import { docsRouter } from './docs.ts';
import { webPageRouter } from './web-page.ts';
import { mountAuthorizationServer } from './authorization-server.ts';
import type { ReadRouting } from './db/read-routing.ts';
import type { Logger } from './observability/logger.ts';
import type { Metrics } from './observability/metrics.ts';
import { requestLog } from './observability/request-log.ts';
import { httpMetrics } from './observability/http-metrics.ts';
import { compressAnswers } from './http/compression.ts';
import { apiVersionHeader } from './http/api-version.ts';
import { deprecationNotice } from './http/deprecation-notice.ts';

export interface AppServices {
  logger: Logger;
  metrics: Metrics;
  readRouting: ReadRouting;
  state: ManagementState;
  feed: ChangeFeed;
  drain: Drain;
  /** The pool's share for streamed reads, which the feed's catch-up uses too. */
  streamShare: StreamShare;
}

export async function createApp(
  config: Config, orm: MikroORM,
  { logger, metrics, readRouting, state, feed, drain, streamShare }: AppServices,
): Promise<Express> {
  const app = express();
  // First, so every answer is timed and logged, including the ones refused before any route.
  app.use(httpMetrics(metrics, config.BASE_PATH));
  app.use(requestLog(logger, config.BASE_PATH));
  app.use(apiVersionHeader);
  app.disable('x-powered-by');
  // ETags are record versions, set by the handlers; express's body hashes would contradict them.
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Read by every streamed answer (src/http/bounded-writes.ts).
  app.locals.streamWriteTimeoutMs = config.STREAM_WRITE_TIMEOUT_MS;
  // Read by every whole list (src/crud/read-handlers.ts).
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

  const tokens = tokenCheck({
    serverUrl: authServerUrl,
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
  // Readiness reports the key store's own state (src/health.ts): no fetch of its own per probe.
  app.locals.realmKeysReachable = tokens.keysReachable;
  const limited = config.RATE_LIMIT_PER_MINUTE ? [rateLimit(config.RATE_LIMIT_PER_MINUTE)] : [];
  const admitted = [negotiate, tokens, ...limited];
  // After a peak of open streams, the heap they grew goes back to the system (src/memory-after-peaks.ts).
  const slots = new StreamSlots(
    config.EVENTS_MAX_SUBSCRIBERS, config.EVENTS_MAX_SUBSCRIBERS_PER_CALLER, memoryAfterPeaks().streamsOpen,
  );
  const events = eventStreams({
    feed, drain, slots, keepAliveMs: config.EVENTS_KEEPALIVE_MS, delivered: metrics.eventDelivered,
  });
  const handlersFor = (resource: AnyResource): OperationHandlers => ({
    ...readHandlers(resource), ...writeHandlers(resource), ...historyHandlers(resource), events: events(resource),
  });

  api.use(cors(config.CORS_ORIGINS));
  const bodyWork = bodySlots();
  const parsers = bodyParsers(config.BODY_LIMIT, [bodyWork.take]);
  const perRequestManager = entityManagerPerRequest(orm, readRouting);
  const idempotency = idempotencyKey(orm, config.IDEMPOTENCY_WINDOW_SECONDS);
  const deprecations = deprecationNotice(metrics.deprecatedUsed);
  const compressed = compressAnswers();
  const dispatch = operationDispatch(resources, (operation) => [
    // Only a read's answer can be long: a write answers one record at most, and wrapping every answer costs each
    // request.
    ...operation.method === 'get' || operation.kind === 'queryByExample' ? [compressed] : [],
    ...admitted,
    // Before the body is read or validated: a caller without the role gets 403, not the schema's 400s.
    roleCheck,
    // Bodies decoded, parsed and validated a few at a time (src/http/body-slots.ts): a read by id never queues
    // behind 50.
    ...parsers,
    queryIntegers,
    ...validation,
    bodyWork.release,
    // After validation: only a request the contract accepts is announced and counted.
    deprecations,
    perRequestManager,
    idempotency,
  ], handlersFor);
  // No operation matched: OPTIONS on a path of the contract is answered as it is; else still a token first, then 405
  // or 404.
  api.use(dispatch.operations, dispatch.options, ...admitted, dispatch.unmatched);
  // After the API: its static files must never be looked up for an API path.
  app.use(webPageRouter({ apiPath: config.BASE_PATH, issuer: realmUrl }));

  app.use((_req, _res) => { throw pathNotFound(); });
  app.use(errorHandler);
  return app;
}
