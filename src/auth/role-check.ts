// The one role check of a request, before its body is read or validated: without the role it is 403, never a 400
// that would tell the caller the schema's rules. It also settles whether the caller reaches anyone's record or only its
// own.
import type { RequestHandler } from 'express';
import { roleMissing } from '../errors/refusals.ts';
import { operationOf } from '../contract/resolution.ts';
import type { Principal } from './access-rules.ts';

/** Walks the operation's few roles once; allocates nothing per request (no list of the roles held). */
export const roleCheck: RequestHandler = (req, res, next) => {
  const principal = res.locals.principal as Principal;
  const { roles, ownRecordsOnly } = operationOf(req)!;
  let held = false;
  // A role that reaches anyone's record (admin) outweighs one that reaches only the caller's own (writer).
  let reachesAnyone = false;
  for (const role of roles) {
    if (!principal.roles.has(role)) continue;
    held = true;
    if (!ownRecordsOnly.includes(role)) reachesAnyone = true;
  }
  if (!held) throw roleMissing();
  res.locals.ownRecordsOnly = !reachesAnyone;
  next();
};
