// The collections' operations behind the token and contract checks: each request resolved once to its operation
// (src/crud/operation-dispatch.ts), then that operation's steps in order, then its handler.
import type { RequestHandler, Router } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config/config.ts';
import type { AppServices } from './app-services.ts';
import { queryIntegers } from '../validation/query-integers.ts';
import { negotiate } from '../http/negotiation.ts';
import { bodyParsers } from '../http/body-parsers.ts';
import { batchRecordsBack, batchShapeForValidator } from '../http/batch-body.ts';
import { bodySlots } from '../http/body-slots.ts';
import { entityManagerPerRequest } from '../db/request-context.ts';
import { operationDispatch, type OperationHandlers } from '../crud/operation-dispatch.ts';
import type { BoundOperation } from '../crud/operations.ts';
import { readHandlers } from '../crud/read/read-handlers.ts';
import { writeHandlers } from '../crud/write/write-handlers.ts';
import { batchHandlers } from '../crud/write/batch-handlers.ts';
import { recordOfColumns } from '../crud/write/csv-columns.ts';
import type { AnyResource } from '../crud/resource-descriptor.ts';
import { historyHandlers } from '../history/history-handlers.ts';
import { eventStreams } from '../feed/event-stream.ts';
import { StreamSlots } from '../feed/stream-slots.ts';
import { memoryAfterPeaks } from '../feed/memory-after-peaks.ts';
import { importMemory } from './import-memory.ts';
import { idempotencyKey } from '../http/idempotency-key.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { cors } from '../http/cors.ts';
import { handlerChain } from '../http/handler-chain.ts';
import { onlyWithBody } from '../http/only-with-body.ts';
import { resources } from '../resources/index.ts';
import { roleCheck } from '../auth/role-check.ts';
import { compressAnswers } from '../http/compression.ts';
import { deprecationNotice } from '../http/deprecation-notice.ts';
import { deprecationsOf } from '../contract/deprecations.ts';

export interface ApiChecks {
  /** The bearer token's check (src/auth/token-check.ts). */
  tokens: RequestHandler;
  /** express-openapi-validator's steps (src/validation/request-validator.ts). */
  validation: readonly RequestHandler[];
}

export function mountApiOperations(
  api: Router, config: Config, orm: MikroORM, services: AppServices, { tokens, validation }: ApiChecks,
): void {
  const limited = config.RATE_LIMIT_PER_MINUTE ? [rateLimit(config.RATE_LIMIT_PER_MINUTE)] : [];
  const admitted = [negotiate, tokens, ...limited];
  const dispatch = operationDispatch(resources, operationSteps(config, orm, services, admitted, validation),
    collectionHandlers(config, services));
  // No operation matched: OPTIONS on a path of the contract is answered as it is; else still a token first, then 405
  // or 404. One layer of the router for all of them: each layer it passes costs a request more than most steps.
  api.use(handlerChain([cors(config.CORS_ORIGINS), dispatch.operations, dispatch.options, ...admitted,
    dispatch.unmatched]));
}

/** What answers each kind of operation of a collection. */
function collectionHandlers(
  config: Config, { feed, drain, metrics }: AppServices,
): (resource: AnyResource) => OperationHandlers {
  // After a peak of open streams, or a burst of them opening, the heap they grew goes back to the system
  // (src/feed/memory-after-peaks.ts).
  const slots = new StreamSlots(config.EVENTS_MAX_SUBSCRIBERS, config.EVENTS_MAX_SUBSCRIBERS_PER_CALLER,
    memoryAfterPeaks(undefined, { afterRises: true }).inUse);
  const events = eventStreams({
    feed, drain, slots, keepAliveMs: config.EVENTS_KEEPALIVE_MS, delivered: metrics.eventsDelivered,
  });
  // After a large import, the heap its records grew goes back to the system too (src/app/import-memory.ts).
  const imports = importMemory();
  return (resource) => ({
    ...readHandlers(resource), ...writeHandlers(resource),
    ...batchHandlers(resource, config.BATCH_MAX_RECORDS, imports),
    ...historyHandlers(resource), events: events(resource),
  });
}

/** The kinds of operation whose answers may be long enough to compress. */
const longAnswers = new Set(['list', 'queryByExample', 'versions', 'batch']);

/** The steps every request of an operation takes before its handler, in order. */
function operationSteps(
  config: Config, orm: MikroORM, { readRouting, metrics }: AppServices, admitted: readonly RequestHandler[],
  validation: readonly RequestHandler[],
): (operation: BoundOperation) => RequestHandler[] {
  const bodyWork = bodySlots();
  const parsers = bodyParsers(config.BODY_LIMIT, [bodyWork.take]);
  // A batch's body is bounded by its own limit, and may be JSON lines or CSV, whose rows are the collection's records.
  const batchParsers = new Map(resources.map((resource) => [resource, bodyParsers(config.BATCH_MAX_BYTES,
    [bodyWork.take], true, (row) => recordOfColumns(resource, row))]));
  const perRequestManager = entityManagerPerRequest(orm, readRouting);
  const idempotency = idempotencyKey(orm, config.IDEMPOTENCY_WINDOW_SECONDS);
  const deprecations = deprecationNotice(metrics.deprecatedUsed);
  const compressed = compressAnswers();
  // The reader, the slot and the decoding (the parsers' last step, the text check, also checks the query).
  const [readAndDecode, checkText] = [parsers.slice(0, -1), parsers.at(-1)!];
  const bodyless = [onlyWithBody(readAndDecode), checkText];
  const bodylessRelease = onlyWithBody([bodyWork.release]);
  // Each operation gets only the steps that have work to do for it: every step costs each request that passes it.
  return (operation) => {
    // A read or a delete whose contract declares no body; any other method keeps the steps that read an empty body.
    const declaresBody = operation.contract.requestBody !== undefined
      || (operation.method !== 'get' && operation.method !== 'delete');
    return [
      // Only a list's, a history's or a batch's answer can be long: a write, a read by id and a version answer one
      // record at most, an event stream is never compressed, and wrapping an answer costs each request (and each open
      // stream).
      ...longAnswers.has(operation.kind) ? [compressed] : [],
      ...admitted,
      // Before the body is read or validated: a caller without the role gets 403, not the schema's 400s.
      roleCheck,
      // Bodies decoded, parsed and validated a few at a time (src/http/body-slots.ts): a read by id never queues
      // behind 50.
      ...operation.kind === 'batch' ? batchParsers.get(operation.resource)! : declaresBody ? parsers : bodyless,
      ...operation.integerQuery.length ? [queryIntegers] : [],
      // A batch's records are held as texts: the validator checks its shape (src/http/batch-body.ts).
      ...operation.kind === 'batch' ? [batchShapeForValidator, ...validation, batchRecordsBack] : validation,
      declaresBody ? bodyWork.release : bodylessRelease,
      // After validation: only a request the contract accepts is announced and counted.
      ...deprecationsOf(operation.contract).length ? [deprecations] : [],
      perRequestManager,
      // Idempotency-Key is a create's and a batch's (docs/api.md).
      ...operation.kind === 'create' || operation.kind === 'batch' ? [idempotency] : [],
    ];
  };
}
