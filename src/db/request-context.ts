// A request's EntityManagers: its own fork for entities, made on first use, and the shared one for statements.
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Request, RequestHandler } from 'express';
import { requestStatements, type ReadRouting } from './read-routing.ts';

/** Only the requests that load or write entities have one: a fork, made on first use. */
const forks = new WeakMap<Request, EntityManager>();

/**
 * Reads are routed per request (src/db/read-routing.ts) until it writes; the shared EntityManager is in the same
 * store, so a request that only runs statements adds nothing else of its own.
 */
export const entityManagerPerRequest =
  (orm: MikroORM, readRouting: ReadRouting): RequestHandler => (_req, _res, next) => {
    readRouting.run(orm.em, next);
  };

function sharedManager(): EntityManager {
  const request = requestStatements();
  if (!request) throw new Error('no request context: entityManagerPerRequest must run first');
  return request.em;
}

/** The request's own fork, with its identity map and unit of work: for loading and writing entities. */
export function requestEntityManager(req: Request): EntityManager {
  // Forking costs more than a read by id itself, so a request that only reads view rows never forks.
  let fork = forks.get(req);
  if (fork === undefined) forks.set(req, fork = sharedManager().fork());
  return fork;
}

/**
 * For statements that hydrate no entity and touch no identity map (view-row reads, a one-row record's write): the
 * shared EntityManager serves them as it is, and the request makes no fork.
 */
export function statementManager(_req: Request): EntityManager {
  return sharedManager();
}
