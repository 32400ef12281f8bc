// One JSON log line per request (pino-http): method, route template, status, duration, request id, caller.
import type { Request, Response, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger.ts';
import { requestId } from './request-id.ts';
import { routeTemplate } from './route-template.ts';
import type { Principal } from '../auth/access-rules.ts';

/** What the error handler leaves for the log line: the error behind a 5xx (pino-http reads `res.err`). */
export function recordError(res: Response, error: unknown): void {
  res.err = error instanceof Error ? error : new Error(String(error));
}

export function requestLog(logger: Logger, basePath: string): RequestHandler {
  // `requestId` is bound to the line by pino-http itself (customAttributeKeys), so it is not repeated here.
  const line = (req: Request, res: Response, durationMs: number) => ({
    method: req.method,
    route: routeTemplate(req, basePath),
    status: res.statusCode,
    durationMs,
    // The token's subject only: never the token itself, nor a header or a body.
    subject: (res.locals.principal as Principal | undefined)?.subject,
  });
  return pinoHttp<Request, Response>({
    logger,
    genReqId: requestId,
    // Nothing of the request is bound to the logger (its headers hold the token); the line is built below.
    quietReqLogger: true,
    quietResLogger: true,
    // The logger's own `err` serializer (error-serializer.ts) applies as is: pino-http's wrapping would first run
    // pino's standard one, which copies every property of an error, driver details included.
    wrapSerializers: false,
    customAttributeKeys: { reqId: 'requestId' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request completed',
    customSuccessObject: (req, res, value: { responseTime: number }) => line(req, res, value.responseTime),
    customErrorMessage: (_req, res) => (res.writableFinished ? 'request failed' : 'request aborted'),
    customErrorObject: (req, res, error, value: { responseTime: number }) => ({ ...line(req, res, value.responseTime), err: error }),
  }) as unknown as RequestHandler;
}
