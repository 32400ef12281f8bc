// Content negotiation in one place: Accept picks the representation for successes and errors alike.
import type { Request, Response, NextFunction } from 'express';
import { notAcceptable } from '../errors/refusals.ts';
import { jsonRepresentation, type Representation } from './representation.ts';
import { xmlRepresentation } from './xml/xml-representation.ts';
import { operationOf } from '../contract/resolution.ts';

const representations: Record<string, Representation> = {
  'application/json': jsonRepresentation,
  'text/xml': xmlRepresentation,
  'application/xml': xmlRepresentation,
};

/** JSON when the client accepts anything (first in the list wins ties), undefined when it accepts neither. */
function acceptedRepresentation(req: Request): Representation | undefined {
  const type = req.accepts(Object.keys(representations));
  return type ? representations[type] : undefined;
}

export function negotiate(req: Request, res: Response, next: NextFunction): void {
  // A stream of events is that or nothing; its errors are JSON.
  if (operationOf(req)?.streams) {
    if (!req.accepts('text/event-stream')) throw notAcceptable();
    res.vary('Accept');
    return next();
  }
  const representation = acceptedRepresentation(req);
  if (!representation) throw notAcceptable();
  res.locals.representation = representation;
  res.vary('Accept');
  next();
}

/** The representation chosen for this response; JSON before negotiation ran or when it failed (406 is JSON). */
export function representationOf(res: Response): Representation {
  return (res.locals.representation as Representation | undefined) ?? jsonRepresentation;
}
