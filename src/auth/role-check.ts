// The one role check of a request, before its body is read or validated: without the role it is 403, never a 400
// that would tell the caller the schema's rules. It also settles whether the caller reaches anyone's record or only its
// own.
import type { RequestHandler } from 'express';
import { roleMissing } from '../errors/refusals.ts';
import { operationOf } from '../contract/resolution.ts';
import type { Principal } from './access-rules.ts';

export const roleCheck: RequestHandler = (req, res, next) => {
  const principal = res.locals.principal as Principal;
  const { roles, ownRecordsOnly } = operationOf(req)!;
  const held = roles.filter((role) => principal.roles.has(role));
  if (!held.length) throw roleMissing();
  // A role that reaches anyone's record (admin) outweighs one that reaches only the caller's own (writer).
  res.locals.ownRecordsOnly = held.every((role) => ownRecordsOnly.includes(role));
  next();
};
