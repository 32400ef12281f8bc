// Content negotiation in one place: Accept picks the representation for successes and errors alike.
import type { Request, Response, NextFunction } from 'express';
import { notAcceptable } from '../errors/refusals.ts';
import { jsonRepresentation, type Representation } from './representation.ts';
import { xmlRepresentation } from './xml/xml-representation.ts';
import { operationOf } from '../contract/resolution.ts';
import { csvRepresentation } from './csv-representation.ts';
import { ndjsonRepresentation } from './ndjson-representation.ts';

const representations: Record<string, Representation> = {
  'application/json': jsonRepresentation,
  'text/xml': xmlRepresentation,
  'application/xml': xmlRepresentation,
};

/** A list's and a query by example's besides those: the export formats (docs/api.md#export), after them in ties. */
const listRepresentations: Record<string, Representation> = {
  ...representations,
  'text/csv': csvRepresentation,
  'application/x-ndjson': ndjsonRepresentation,
};

/** Each set's media types, listed once. */
const offeredTypes = new Map([representations, listRepresentations].map((offered) => [offered, Object.keys(offered)]));

/**
 * JSON when the client accepts anything (first in the list wins ties), undefined when it accepts none. Most clients
 * send no Accept or `*\/*`: that is answered without parsing the header.
 */
function acceptedRepresentation(req: Request, offered: Record<string, Representation>): Representation | undefined {
  const types = offeredTypes.get(offered)!;
  const accept = req.headers.accept;
  if (accept === undefined || accept === '*/*') return offered[types[0]!];
  const type = req.accepts(types);
  return type ? offered[type] : undefined;
}

/** `Vary: Accept`, added to what is there already. */
function varyByAccept(res: Response): void {
  if (res.getHeader('Vary') === undefined) res.setHeader('Vary', 'Accept');
  else res.vary('Accept');
}

export function negotiate(req: Request, res: Response, next: NextFunction): void {
  // A stream of events is that or nothing; its errors are JSON. A client that accepts JSON gets the stream as well: the
  // stream is the operation's only success, and generated clients (python, go) ask for JSON first whatever it answers.
  if (operationOf(req)?.streams) {
    if (!req.accepts(['text/event-stream', 'application/json'])) throw notAcceptable();
    varyByAccept(res);
    return next();
  }
  const lists = operationOf(req)?.view !== undefined;
  const representation = acceptedRepresentation(req, lists ? listRepresentations : representations);
  if (!representation) throw notAcceptable();
  // An export's errors are JSON: a CSV or JSON lines error body would be read as data.
  res.locals.representation = representation.extension ? jsonRepresentation : representation;
  res.locals.listRepresentation = representation;
  varyByAccept(res);
  next();
}

/** The representation chosen for this response's list: an export format's, else that of every other answer. */
export function listRepresentationOf(res: Response): Representation {
  return (res.locals.listRepresentation as Representation | undefined) ?? representationOf(res);
}

/** The representation chosen for this response; JSON before negotiation ran or when it failed (406 is JSON). */
export function representationOf(res: Response): Representation {
  return (res.locals.representation as Representation | undefined) ?? jsonRepresentation;
}
