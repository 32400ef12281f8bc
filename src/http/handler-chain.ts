// Runs an operation's steps one after the other, as an express Router of them would, without the Router's per-step
// path matching and bookkeeping: the request was resolved to its operation already (src/crud/operation-dispatch.ts).
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * `next(error)`, a thrown error or a rejected promise ends the chain with that error (as express 5 does);
 * `next('route')` or `next('router')` ends it without one; the last step's `next()` passes the request on.
 */
export function handlerChain(steps: readonly RequestHandler[]): RequestHandler {
  // An error handler among the steps would be skipped silently here; errors go to the application's one handler.
  if (steps.some((step) =>
    step.length > 3)) throw new Error('an operation step handles errors: that belongs to src/http/error-handler.ts');
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error === 'route' || error === 'router') return done();
      if (error) return done(error);
      const step = steps[index++];
      if (!step) return done();
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) result.catch((failure: unknown) => done(failure
          ?? new Error('Rejected promise')));
      } catch (failure) {
        done(failure ?? new Error('Thrown undefined'));
      }
    };
    next();
  };
}
