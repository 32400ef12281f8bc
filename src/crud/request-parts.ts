// What the generic handlers read of a request besides its body: its context (EntityManager, locale), its caller, its
// id.
import type { Request, Response } from 'express';
import type { EntityManager } from '@mikro-orm/core';
import type { Locale } from '../i18n/messages.ts';
import type { RequestContext } from './resource-descriptor.ts';
import type { Principal } from '../auth/access-rules.ts';
import { requestEntityManager } from '../db/request-context.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { pathNumber } from './operations.ts';

export type Versioned = { version: number };

/**
 * A class, not an object literal with a getter: such a literal makes its getter's closure anew for every request, and
 * most requests never ask for the EntityManager.
 */
class RequestParts implements RequestContext {
  readonly locale: Locale;
  readonly #req: Request;

  constructor(req: Request) {
    this.#req = req;
    this.locale = requestLocale(req);
  }

  get em(): EntityManager {
    return requestEntityManager(this.#req);
  }
}

export const requestContextOf = (req: Request): RequestContext => new RequestParts(req);
export const principalOf = (res: Response): Principal => res.locals.principal as Principal;
export const pathId = (req: Request): number => pathNumber(req, 'id');
