// Resolves each API request to its operation once, with a table of openapi.yaml's paths built at start, and runs that
// operation's steps: no per-operation express route is tried, and nothing downstream matches the path again.
import type { Request, RequestHandler } from 'express';
import type { AnyResource } from './resource-descriptor.ts';
import { boundOperations, type BoundOperation, type OperationKind } from './operations.ts';
import { resolveTo } from '../contract/resolution.ts';
import { pathTable } from '../contract/path-table.ts';
import { answerVariants } from './answer-variants.ts';
import { entityNotFound, methodNotAllowed, pathNotFound } from '../errors/refusals.ts';
import { isAdmittedPreflight } from '../http/cors.ts';
import { handlerChain } from '../http/handler-chain.ts';

/** What answers each kind of operation of one resource. */
export type OperationHandlers = Record<OperationKind, RequestHandler>;

interface Resolved {
  operation: BoundOperation;
  steps: RequestHandler;
  /** What the request asked for may be answered by another declared operation (src/crud/answer-variants.ts). */
  variant?: (req: Request) => Resolved | undefined;
}

/** The request's path is one of the contract's, but its method is none of that path's: its `Allow`. */
const otherMethods = new WeakMap<Request, string>();

export interface Dispatch {
  /** Runs the request's operation, or passes it on when its path or method is not in the contract. */
  operations: RequestHandler;
  /**
   * `OPTIONS` on a path of the contract, before any token (it tells nothing the served contract does not): 200, no
   * body, `Allow` (RFC 9110 §9.3.7). A CORS preflight of an allowed origin (src/http/cors.ts): 204 with the same
   * methods as `Access-Control-Allow-Methods`.
   */
  options: RequestHandler;
  /** After the token check: 405 with `Allow` for a path of the contract, else 404. */
  unmatched: RequestHandler;
}

export function operationDispatch(resources: readonly AnyResource[],
  stepsFor: (operation: BoundOperation) => readonly RequestHandler[], handlersFor: (resource: AnyResource) =>
  OperationHandlers): Dispatch {
  const handlersOf = new Map(resources.map((resource) => [resource, handlersFor(resource)]));
  const byPath = new Map<string, Map<string, Resolved>>();
  const all: Resolved[] = [];
  for (const operation of boundOperations(resources)) {
    const handler = operation.own ?? handlersOf.get(operation.resource)![operation.kind as OperationKind];
    const methods = byPath.get(operation.template)
      ?? byPath.set(operation.template, new Map()).get(operation.template)!;
    const resolved: Resolved = { operation, steps: handlerChain([...stepsFor(operation), handler]) };
    methods.set(operation.method.toUpperCase(), resolved);
    all.push(resolved);
  }
  const variantsOf = answerVariants(all, (resolved) => resolved.operation.contract);
  for (const resolved of all) resolved.variant = variantsOf(resolved);
  // RFC 9110 §9.3.2: HEAD wherever GET is; OPTIONS on every path (§9.3.7).
  const allow = new Map([...byPath].map(([template, methods]) => {
    const names = [...methods.keys()];
    return [template, [...names, ...(methods.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ')];
  }));
  const match = pathTable(byPath.keys());
  const names = new Set(resources.map(({ name }) => name.toLowerCase()));

  const operations: RequestHandler = (req, res, next) => {
    const found = match(req.path);
    if (!found) return next();
    const methods = byPath.get(found.template)!;
    const asked = methods.get(req.method) ?? (req.method === 'HEAD' ? methods.get('GET') : undefined);
    if (!asked) {
      otherMethods.set(req, allow.get(found.template)!);
      return next();
    }
    const resolved = asked.variant?.(req) ?? asked;
    resolveTo(req, resolved.operation, found.params);
    resolved.steps(req, res, next);
  };
  const options: RequestHandler = (req, res, next) => {
    const methods = otherMethods.get(req);
    if (req.method !== 'OPTIONS' || !methods) return next();
    if (isAdmittedPreflight(req)) return void res.set('Access-Control-Allow-Methods', methods).status(204).end();
    res.set({ Allow: methods, 'Content-Length': '0' }).status(200).end();
  };
  const unmatched: RequestHandler = (req, _res, next) => {
    const methods = otherMethods.get(req);
    if (methods) return next(methodNotAllowed(methods));
    // `{id}` is any text, `/` included (docs/behaviour.md#ids): `/sighting/a/b`, which no path of the contract matches,
    // names no record.
    const segments = req.path.split('/').filter(Boolean);
    if (segments.length > 1 && names.has(segments[0]!.toLowerCase())) return next(entityNotFound());
    next(pathNotFound());
  };
  return { operations, options, unmatched };
}
