// Liveness and readiness for orchestrators: readiness names each dependency it checked, and says DOWN from the moment a
// stop begins.
import { Router } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import { databaseReadiness, type ComponentState, type DatabaseState } from './readiness.ts';

export interface HealthState {
  /** True once SIGTERM arrived: balancers take the instance out while it still answers. */
  stopping(): boolean;
  /**
   * Whether the token check holds the realm's signing keys and its last fetch of them succeeded
   * (src/auth/realm-keys.ts).
   */
  realmKeysReachable(): boolean;
  /**
   * Whether the change feed's LISTEN session is connected; undefined where there is none (PGlite signals in-process).
   */
  feedListening(): boolean | undefined;
  /** Each readiness answer's database state (metrics). */
  observed?(state: DatabaseState): void;
}

/**
 * 503 only for what every request needs: the database, and migrations at this build's version. The identity provider
 * (cached keys still check tokens) and the feed's listener (the feed polls meanwhile) are reported DEGRADED with a 200,
 * so an outage of either never takes a whole fleet out of its balancer at once.
 */
export function healthRouter(orm: MikroORM, state: HealthState): Router {
  const database = databaseReadiness(orm);
  return Router()
    .get('/live', (_req, res) => { res.json({ status: 'UP' }); })
    .get('/ready', async (_req, res) => {
      if (state.stopping()) return void res.status(503).json({ status: 'DOWN', reason: 'stopping' });
      const db = await database();
      const identityProvider: ComponentState = state.realmKeysReachable() ? 'UP' : 'DOWN';
      const changeFeed: ComponentState = state.feedListening() === false ? 'DOWN' : 'UP';
      state.observed?.(db);
      const components = { database: db.database, migrations: db.migrations, identityProvider, changeFeed };
      const needed = db.database === 'UP' && db.migrations === 'UP';
      const status = !needed ? 'DOWN' : identityProvider === 'UP' && changeFeed === 'UP' ? 'UP' : 'DEGRADED';
      res.status(needed ? 200 : 503).json({ status, components });
    });
}
