// An operation's steps run as a Router of them would: in order, and any way a step fails ends the chain with its error.
import { expect } from 'chai';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { handlerChain } from '../../src/http/handler-chain.ts';

/**
 * Runs the chain once and resolves with what it passed on: `{ error }` (undefined when none) and the steps that ran.
 */
function run(steps: RequestHandler[]): Promise<{ error: unknown; ran: number[] }> {
  const ran: number[] = [];
  const traced =
    steps.map((step, index): RequestHandler => (req, res, next) => { ran.push(index); return step(req, res, next); });
  return new Promise((resolve) => handlerChain(traced)({} as Request, {} as Response,
    ((error?: unknown) => resolve({ error, ran })) as NextFunction));
}

describe('an operation\'s step chain', () => {
  const pass: RequestHandler = (_req, _res, next) => next();
  const failure = new Error('refused');

  it('when every step passes, then each runs once in order and the request is passed on without an error', async () => {
    expect(await run([pass, pass, pass])).to.deep.equal({ error: undefined, ran: [0, 1, 2] });
  });

  it('when a step calls next with an error, throws, or returns a rejected promise, ' +
    'then the chain ends there with that error', async () => {
    const ways: RequestHandler[] = [
      (_req, _res, next) => next(failure),
      () => { throw failure; },
      async () => { await Promise.resolve(); throw failure; },
    ];
    for (const failing of ways) expect(await run([pass, failing, pass])).to.deep.equal({ error: failure, ran: [0, 1] });
  });

  it('when a step calls next("router"), then the chain ends without an error, as leaving a Router does', async () => {
    expect(await run([pass, (_req, _res, next) => next('router'), pass]))
      .to.deep.equal({ error: undefined, ran: [0, 1] });
  });

  it('when a step handles errors (four parameters), then the chain is refused when it is built', () => {
    const errorHandler =
      ((_error: unknown, _req: Request, _res: Response, next: NextFunction) => next()) as unknown as RequestHandler;
    expect(() => handlerChain([pass, errorHandler])).to.throw(/error-handler/);
  });
});
