// Liveness and readiness for orchestrators; readiness asks the database (within a bound), and says DOWN from the moment a stop begins.
import { Router } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import { databaseReadiness } from './readiness.ts';

/** `stopping()` is true once SIGTERM arrived: balancers take the instance out while it still answers. */
export function healthRouter(orm: MikroORM, stopping: () => boolean): Router {
  const databaseReady = databaseReadiness(orm);
  return Router()
    .get('/live', (_req, res) => { res.json({ status: 'UP' }); })
    .get('/ready', async (_req, res) => {
      if (stopping()) return void res.status(503).json({ status: 'DOWN', reason: 'stopping' });
      const ok = await databaseReady();
      res.status(ok ? 200 : 503).json({ status: ok ? 'UP' : 'DOWN', database: ok ? 'UP' : 'DOWN' });
    });
}
