// Mounts every bound operation as one express route: the router's match is the request's one resolution, and
// each route runs the same per-request steps before the operation's generic handler.
import { Router, type RequestHandler } from 'express';
import type { AnyResource } from './resource-descriptor.ts';
import { boundOperations, matchedTo, type BoundOperation, type OperationKind } from './operations.ts';
import { entityNotFound } from '../errors/app-errors.ts';

/** What answers each kind of operation of one resource. */
export type OperationHandlers = Record<OperationKind, RequestHandler>;

export function crudRouter(resources: readonly AnyResource[], stepsFor: (operation: BoundOperation) => readonly RequestHandler[], handlersFor: (resource: AnyResource) => OperationHandlers): Router {
  const router = Router();
  const handlersOf = new Map(resources.map((resource) => [resource, handlersFor(resource)]));
  for (const operation of boundOperations(resources)) {
    const match: RequestHandler = (req, _res, next) => {
      matchedTo(req, operation);
      next();
    };
    router[operation.method](operation.route, match, ...stepsFor(operation), operation.own ?? handlersOf.get(operation.resource)![operation.kind as OperationKind]);
  }
  return router;
}

/**
 * `{id}` is any text, `/` included (contract A): `/sighting/a/b`, which no operation's route matches, names no record.
 * A path shaped like an operation's (`/sighting/5/versions` with another method) goes on to the validator's 405.
 */
export function idsWithSlashes(resources: readonly AnyResource[]): Router {
  const router = Router();
  const shapes = boundOperations(resources).map(({ template }) => template.split('/').slice(1));
  const shaped = (segments: string[]) => shapes.some((shape) => shape.length === segments.length
    && shape.every((part, i) => part.startsWith('{') || part === segments[i]));
  const names = new Set(resources.map(({ name }) => name));
  router.all('/:name/:id/*rest', (req, _res, next) => {
    if (!names.has(req.params.name!)) return next();
    const segments = [req.params.name!, req.params.id!, ...(req.params.rest as unknown as string[])];
    if (shaped(segments)) return next();
    throw entityNotFound();
  });
  return router;
}
