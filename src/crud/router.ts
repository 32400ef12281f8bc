// Mounts every bound operation as one express route: the router's match is the request's one resolution, and
// each route runs the same per-request steps before the operation's generic handler.
import { Router, type RequestHandler } from 'express';
import type { AnyResource } from './resource-descriptor.ts';
import { boundOperations, matchedTo } from './operations.ts';
import { crudHandlers } from './handlers.ts';
import { entityNotFound } from '../errors/app-errors.ts';

export function crudRouter(resources: readonly AnyResource[], steps: readonly RequestHandler[]): Router {
  const router = Router();
  const handlersOf = new Map(resources.map((resource) => [resource, crudHandlers(resource)]));
  for (const operation of boundOperations(resources)) {
    const match: RequestHandler = (req, _res, next) => {
      matchedTo(req, operation);
      next();
    };
    router[operation.method](operation.route, match, ...steps, handlersOf.get(operation.resource)![operation.kind]);
  }
  return router;
}

/** `{id}` is any text, `/` included (contract A): `/sighting/a/b`, which no operation's route matches, names no record. */
export function idsWithSlashes(resources: readonly AnyResource[]): Router {
  const router = Router();
  for (const { name } of resources) router.all(`/${name}/:id/*rest`, () => { throw entityNotFound(); });
  return router;
}
