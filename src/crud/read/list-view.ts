// Which view a list's rows are in: `view=detail` answers each row of a page in the detail view
// (docs/behaviour.md#list), so a page and what its list view leaves out (a sighting's memo) come in one request; the
// contract declares each view's list as its own operation (`GET /{resource}/detail-view`).
import type { Request } from 'express';
import type { View } from '../resource-descriptor.ts';
import { ValidationFailed } from '../../errors/app-errors.ts';
import { operationOf } from '../../contract/resolution.ts';

/** A page of detail rows is several times a page of list rows: fewer of them fit the same answer. */
export const detailPageLimit = 200;

/**
 * The view of the operation the request was answered as (`view` names another operation's,
 * src/crud/answer-variants.ts): a list's is `list`, a query by example's `detail`, unless the operation is declared for
 * the other view.
 */
export function listViewOf(req: Request, byDefault: View): View {
  const view = operationOf(req)?.view ?? byDefault;
  const limit = req.query.limit as number | undefined;
  if (view === 'detail' && limit !== undefined && limit > detailPageLimit) {
    throw new ValidationFailed([{ field: 'limit', key: 'error.limit.range',
      params: { min: 1, max: detailPageLimit } }]);
  }
  return view;
}
