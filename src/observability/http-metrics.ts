// Times every request and counts those in flight, labelled by route template (bounded), never by raw path.
import type { Request, Response } from 'express';
import type { Metrics } from './metrics.ts';
import { recordedError } from './request-log.ts';
import { isAcquireTimeout } from '../errors/database-unavailable.ts';

/** Counted once, as the request arrives. */
export function requestArrived(metrics: Metrics): void {
  metrics.requestsInFlight.inc();
}

/**
 * Counted once, at `close` (after `finish`, or alone when the client went away first), `at` being
 * `performance.now()` at the request's arrival.
 */
export function requestEnded(metrics: Metrics, req: Request, res: Response, route: string, at: number): void {
  metrics.requestsInFlight.dec();
  metrics.requestDuration.observe({ method: req.method, route,
    status: res.writableFinished ? String(res.statusCode) : 'aborted' }, (performance.now() - at) / 1000);
  // A 503 because no pooled connection came free in time: the pool, not the database, is the bottleneck.
  const error = res.statusCode === 503 ? recordedError(res) : undefined;
  if (error && isAcquireTimeout(error)) metrics.acquireTimedOut('primary');
}
