// One EntityManager fork per request (STYLE 3), found through MikroORM's RequestContext.
import { RequestContext, type EntityManager, type MikroORM } from '@mikro-orm/core';
import type { RequestHandler } from 'express';

export const entityManagerPerRequest = (orm: MikroORM): RequestHandler => (_req, _res, next) => RequestContext.create(orm.em, next);

export function requestEntityManager(): EntityManager {
  const em = RequestContext.getEntityManager();
  if (!em) throw new Error('no request context: entityManagerPerRequest must run first');
  return em;
}
