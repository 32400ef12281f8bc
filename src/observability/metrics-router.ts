// GET /metrics in Prometheus' text format: open like /health, or behind a bearer token (METRICS_TOKEN).
import { timingSafeEqual, createHash } from 'node:crypto';
import { Router } from 'express';
import type { Metrics } from './metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function metricsRouter(metrics: Metrics, token: string | undefined): Router {
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  return Router().get('/metrics', async (req, res) => {
    // Compared as digests in constant time, so the answer's timing tells nothing about the token (RFC 6750 §5.2).
    if (expected && !timingSafeEqual(digest(req.get('Authorization') ?? ''), expected)) {
      res.status(401).set('WWW-Authenticate',
        'Bearer realm="metrics"').type('text/plain').send('A bearer token is required.\n');
      return;
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
