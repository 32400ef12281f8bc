// What the generic handlers read of a request besides its body: its context (EntityManager, locale), its caller, its
// id.
import type { Request, Response } from 'express';
import type { RequestContext } from './resource-descriptor.ts';
import type { Principal } from '../auth/access-rules.ts';
import { requestEntityManager } from '../db/request-context.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { pathNumber } from './operations.ts';

export type Versioned = { version: number };

export const requestContextOf = (req: Request): RequestContext =>
  ({ get em() { return requestEntityManager(req); }, locale: requestLocale(req) });
export const principalOf = (res: Response): Principal => res.locals.principal as Principal;
export const pathId = (req: Request): number => pathNumber(req, 'id');
