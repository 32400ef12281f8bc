// What operators see of every request, its log line and its metrics, from one listener and one route template.
import type { RequestHandler, Response } from 'express';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { logRequest, requestStart, type RequestStart } from './request-log.ts';
import { requestArrived, requestEnded } from './http-metrics.ts';
import { routeTemplate } from './route-template.ts';

/** On the answer under a symbol, not in a `WeakMap` (src/contract/resolution.ts says why). */
const started = Symbol('request start');
type Observed = Response & { [started]: RequestStart };

export function requestObservation(logger: Logger, metrics: Metrics, basePath: string): RequestHandler {
  // One listener for every answer, not a closure per request: an answer that stays open (a stream of events) would
  // hold the closure and its context for as long as it lasts. An answer closes once: `on`, not `once`.
  function ended(this: Response): void {
    const start = (this as Observed)[started];
    const route = routeTemplate(this.req, basePath);
    requestEnded(metrics, this.req, this, route, start.at);
    logRequest(logger, this.req, this, route, start);
  }
  return (req, res, next) => {
    requestArrived(metrics);
    (res as Observed)[started] = requestStart(req, res, performance.now());
    res.on('close', ended);
    next();
  };
}
