// The one role check of a request, before its body is read or validated: without the role it is 403, never a 400
// that would tell the caller the schema's rules.
import type { RequestHandler } from 'express';
import { Forbidden } from '../errors/app-errors.ts';
import { operationOf } from '../contract/resolution.ts';
import type { Principal } from './access-rules.ts';

export const roleCheck: RequestHandler = (req, res, next) => {
  const principal = res.locals.principal as Principal;
  if (!operationOf(req)!.roles.some((role) => principal.roles.has(role))) throw new Forbidden('error.forbidden');
  next();
};
