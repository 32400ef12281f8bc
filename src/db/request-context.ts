// A request's EntityManagers: its own fork for entities, made on first use, and the shared one for
// statements.
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Request, RequestHandler } from 'express';
import type { ReadRouting } from './read-routing.ts';

interface RequestManagers { shared: EntityManager; fork?: EntityManager }
const managers = new WeakMap<Request, RequestManagers>();

/** Reads are routed per request (src/db/read-routing.ts) until it writes. */
export const entityManagerPerRequest = (orm: MikroORM, readRouting: ReadRouting): RequestHandler => (req, _res, next) =>
  {
  managers.set(req, { shared: orm.em });
  readRouting.run(next);
};

function managersOf(req: Request): RequestManagers {
  const found = managers.get(req);
  if (!found) throw new Error('no request context: entityManagerPerRequest must run first');
  return found;
}

/** The request's own fork, with its identity map and unit of work: for loading and writing entities. */
export function requestEntityManager(req: Request): EntityManager {
  const request = managersOf(req);
  // Forking costs more than a read by id itself, so a request that only reads view rows never forks.
  return request.fork ??= request.shared.fork();
}

/**
 * For statements that hydrate no entity and touch no identity map (view-row reads, a one-row record's write): the
 * shared EntityManager serves them as it is, and the request makes no fork.
 */
export function statementManager(req: Request): EntityManager {
  return managersOf(req).shared;
}
