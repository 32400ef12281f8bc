// Liveness and readiness for orchestrators; readiness asks the database.
import { Router } from 'express';
import type { MikroORM } from '@mikro-orm/core';

export function healthRouter(orm: MikroORM): Router {
  return Router()
    .get('/live', (_req, res) => { res.json({ status: 'UP' }); })
    .get('/ready', async (_req, res) => {
      const { ok } = await orm.checkConnection();
      res.status(ok ? 200 : 503).json({ status: ok ? 'UP' : 'DOWN', database: ok ? 'UP' : 'DOWN' });
    });
}
