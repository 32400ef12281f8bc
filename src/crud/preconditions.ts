// Entity tags from versions, and the conditional request headers of RFC 9110 §13.
import type { Request } from 'express';
import { PreconditionFailed } from '../errors/app-errors.ts';

export const etagOf = (version: number): string => `"${version}"`;

function tags(header: string): string[] {
  return header.split(',').map((tag) => tag.trim()).filter(Boolean);
}

/** §13.1.2: If-None-Match uses the weak comparison; `*` matches any current record. */
export function notModified(req: Request, version: number): boolean {
  const header = req.get('If-None-Match');
  if (!header) return false;
  return tags(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etagOf(version));
}

/** §13.1.1: If-Match uses the strong comparison; a mismatch is 412 and nothing is written. */
export function checkIfMatch(req: Request, version: number): void {
  const header = req.get('If-Match');
  if (header && !tags(header).some((tag) => tag === '*' || tag === etagOf(version))) {
    throw new PreconditionFailed('error.preconditionFailed');
  }
}

/** Whether `If-Match` names a version: `*` matches whatever is current, so it states none (contract D). */
export function ifMatchStatesVersion(req: Request): boolean {
  return tags(req.get('If-Match') ?? '').some((tag) => tag !== '*');
}
