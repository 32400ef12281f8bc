// One JSON log line per request: request id, method, route template, status, duration, caller; no header, no body.
import type { Request, Response, RequestHandler } from 'express';
import { trace, context } from '@opentelemetry/api';
import type { Logger } from './logger.ts';
import { logText } from './log-text.ts';
import { requestId } from './request-id.ts';
import { routeTemplate } from './route-template.ts';

const failures = new WeakMap<Response, Error>();

/** What the error handler leaves for the log line: the error behind a 5xx. */
export function recordError(res: Response, error: unknown): void {
  failures.set(res, error instanceof Error ? error : new Error(String(error)));
}

/** The error behind this answer's 5xx, if the error handler recorded one. */
export function recordedError(res: Response): Error | undefined {
  return failures.get(res);
}

/** What a request's line needs from its start: its id and its trace. */
export interface RequestStart {
  id: string;
  traceId: string | undefined;
  /** `performance.now()` at the request's arrival. */
  at: number;
}

/** Taken as the request arrives: its id (set on the answer) and its server span's trace, when one is recorded. */
export function requestStart(req: Request, res: Response, at: number): RequestStart {
  // The request's server span when OpenTelemetry traces (src/observability/telemetry.ts); else none, at no cost.
  const span = trace.getSpan(context.active());
  return { id: requestId(req, res), traceId: span?.isRecording() ? span.spanContext().traceId : undefined, at };
}

/**
 * The request's line, once the answer is done or the connection closed first. No child logger per request: pino
 * serialises a child's bindings when it is made, which costs more than the line itself; and no line is built at a
 * level that drops it.
 */
export function logRequest(logger: Logger, req: Request, res: Response, route: string, start: RequestStart): void {
  const error = failures.get(res);
  const failed = error !== undefined || res.statusCode >= 500;
  if (!failed && !logger.isLevelEnabled('info')) return;
  const line = {
    requestId: start.id,
    traceId: start.traceId,
    method: req.method,
    route,
    status: res.statusCode,
    durationMs: Math.round(performance.now() - start.at),
    // A bounded, escaped prefix of the token's subject only: never the token itself, nor a header or a body.
    subject: logText((res.locals.principal as { subject?: string } | undefined)?.subject),
  };
  if (!failed) return logger.info(line, 'request completed');
  logger.error({ ...line, err: error ?? new Error(`failed with status code ${res.statusCode}`) },
    res.writableFinished ? 'request failed' : 'request aborted');
}

/** The log line alone, for an application without metrics (src/observability/request-observation.ts has both). */
export function requestLog(logger: Logger, basePath: string): RequestHandler {
  return (req, res, next) => {
    const start = requestStart(req, res, performance.now());
    res.once('close', () => logRequest(logger, req, res, routeTemplate(req, basePath), start));
    next();
  };
}
