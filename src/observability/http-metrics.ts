// Times every request and counts those in flight, labelled by route template (bounded), never by raw path.
import type { RequestHandler } from 'express';
import type { Metrics } from './metrics.ts';
import { routeTemplate } from './route-template.ts';
import { recordedError } from './request-log.ts';
import { isAcquireTimeout } from '../errors/database-unavailable.ts';

export function httpMetrics(metrics: Metrics, basePath: string): RequestHandler {
  return (req, res, next) => {
    metrics.requestsInFlight.inc();
    const end = metrics.requestDuration.startTimer({ method: req.method });
    // `close` comes after `finish`, and alone when the client went away first: count each request once.
    res.once('close', () => {
      metrics.requestsInFlight.dec();
      end({ route: routeTemplate(req, basePath), status: res.writableFinished ? String(res.statusCode) : 'aborted' });
      // A 503 because no pooled connection came free in time: the pool, not the database, is the bottleneck.
      const error = res.statusCode === 503 ? recordedError(res) : undefined;
      if (error && isAcquireTimeout(error)) metrics.acquireTimedOut('primary');
    });
    next();
  };
}
