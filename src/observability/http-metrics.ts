// Times every request and counts those in flight, labelled by route template (bounded), never by raw path.
import type { Request, Response } from 'express';
import type { Metrics } from './metrics.ts';
import { recordedError } from './request-log.ts';
import { isAcquireTimeout } from '../errors/database-unavailable.ts';

// A status's label, made once per status code rather than once per answer.
const statusTexts = new Map<number, string>();
function statusText(status: number): string {
  let text = statusTexts.get(status);
  if (text === undefined) statusTexts.set(status, text = String(status));
  return text;
}

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
  metrics.requestDuration.observe((performance.now() - at) / 1000, req.method, route,
    res.writableFinished ? statusText(res.statusCode) : 'aborted');
  // A 503 because no pooled connection came free in time: the pool, not the database, is the bottleneck.
  const error = res.statusCode === 503 ? recordedError(res) : undefined;
  if (error && isAcquireTimeout(error)) metrics.acquireTimedOut('primary');
}
