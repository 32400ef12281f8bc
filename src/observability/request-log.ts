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

/**
 * Written once, when the answer is done or the connection closed first. No child logger per request: pino
 * serialises a child's bindings when it is made, which costs more than the line itself.
 */
export function requestLog(logger: Logger, basePath: string): RequestHandler {
  return (req: Request, res: Response, next) => {
    const started = Date.now();
    const id = requestId(req, res);
    // The request's server span when OpenTelemetry traces (src/observability/telemetry.ts); else none, at no cost.
    const span = trace.getSpan(context.active());
    const traceId = span?.isRecording() ? span.spanContext().traceId : undefined;
    res.once('close', () => {
      const line = {
        requestId: id,
        traceId,
        method: req.method,
        route: routeTemplate(req, basePath),
        status: res.statusCode,
        durationMs: Date.now() - started,
        // A bounded, escaped prefix of the token's subject only: never the token itself, nor a header or a body.
        subject: logText((res.locals.principal as { subject?: string } | undefined)?.subject),
      };
      const error = failures.get(res);
      if (!error && res.statusCode < 500) return logger.info(line, 'request completed');
      logger.error({ ...line, err: error ?? new Error(`failed with status code ${res.statusCode}`) },
        res.writableFinished ? 'request failed' : 'request aborted');
    });
    next();
  };
}
