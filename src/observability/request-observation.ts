// What operators see of every request, its log line and its metrics, from one listener and one route template.
import type { RequestHandler } from 'express';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { logRequest, requestStart } from './request-log.ts';
import { requestArrived, requestEnded } from './http-metrics.ts';
import { routeTemplate } from './route-template.ts';

export function requestObservation(logger: Logger, metrics: Metrics, basePath: string): RequestHandler {
  return (req, res, next) => {
    const at = performance.now();
    requestArrived(metrics);
    const start = requestStart(req, res, at);
    // An answer closes once: `on`, not `once`, which would wrap the listener in one more closure per request.
    res.on('close', () => {
      const route = routeTemplate(req, basePath);
      requestEnded(metrics, req, res, route, at);
      logRequest(logger, req, res, route, start);
    });
    next();
  };
}
