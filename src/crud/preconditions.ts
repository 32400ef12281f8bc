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
  const versions = ifMatchVersions(req);
  if (versions && !versions.includes(version)) throw new PreconditionFailed('error.preconditionFailed');
}

/**
 * The versions `If-Match` admits, for a write that states them in its WHERE clause; undefined when it admits any
 * (no header, or `*`). A tag that names no version (weak, or not a whole number) admits none.
 */
export function ifMatchVersions(req: Request): number[] | undefined {
  const header = req.get('If-Match');
  if (!header) return undefined;
  const found = tags(header);
  if (found.includes('*')) return undefined;
  return found.map((tag) => Number(/^"(-?\d{1,15})"$/.exec(tag)?.[1])).filter((version) => Number.isSafeInteger(version) && found.includes(etagOf(version)));
}

/** Whether `If-Match` names a version: `*` matches whatever is current, so it states none (contract D). */
export function ifMatchStatesVersion(req: Request): boolean {
  return tags(req.get('If-Match') ?? '').some((tag) => tag !== '*');
}
