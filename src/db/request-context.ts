// One EntityManager fork per request (STYLE 3), found through MikroORM's RequestContext; reads routed per request.
import { RequestContext, type EntityManager, type MikroORM } from '@mikro-orm/core';
import type { RequestHandler } from 'express';
import type { ReadRouter } from './read-routing.ts';

export const entityManagerPerRequest = (orm: MikroORM, router: ReadRouter): RequestHandler => (_req, _res, next) =>
  router.run(() => RequestContext.create(orm.em, next));

export function requestEntityManager(): EntityManager {
  const em = RequestContext.getEntityManager();
  if (!em) throw new Error('no request context: entityManagerPerRequest must run first');
  return em;
}
