// Times every request and counts those in flight, labelled by route template (bounded), never by raw path.
import type { RequestHandler } from 'express';
import type { Metrics } from './metrics.ts';
import { routeTemplate } from './route-template.ts';

export function httpMetrics(metrics: Metrics, basePath: string): RequestHandler {
  return (req, res, next) => {
    metrics.requestsInFlight.inc();
    const end = metrics.requestDuration.startTimer({ method: req.method });
    // `close` comes after `finish`, and alone when the client went away first: count each request once.
    res.once('close', () => {
      metrics.requestsInFlight.dec();
      end({ route: routeTemplate(req, basePath), status: res.writableFinished ? String(res.statusCode) : 'aborted' });
    });
    next();
  };
}
