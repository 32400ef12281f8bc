// Why a conditional write matched nothing, told only then, from the row's state read afterwards
// (docs/behaviour.md#update).
import type { Request, Response } from 'express';
import { requireOwnership } from '../../auth/access-rules.ts';
import { entityNotFound, staleVersion } from '../../errors/refusals.ts';
import type { RowState } from './row-writes.ts';
import { checkIfMatch } from '../preconditions.ts';

/**
 * The checks before a stated version, in the order docs/behaviour.md#update gives: no such record 404, not the caller's
 * 403, `If-Match` 412.
 */
export function checkState(state: RowState | undefined, req: Request, res: Response, owned: boolean): RowState {
  if (!state) throw entityNotFound();
  if (owned) requireOwnership(res, state.owner);
  checkIfMatch(req, state.version);
  return state;
}

/**
 * Throws what the contract answers for a write that matched nothing: one of `checkState`'s, else a stale version
 * (409). A row that passes them all was changed after the write: versions only grow, so that is a stale version too.
 */
export function refuseWrite(state: RowState | undefined, req: Request, res: Response, owned: boolean): never {
  checkState(state, req, res, owned);
  throw staleVersion();
}
