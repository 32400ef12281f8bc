// Entity tags from versions, and the conditional request headers of RFC 9110 §13.
import type { Request } from 'express';
import { BadRequest } from '../errors/app-errors.ts';
import { ifMatchFailed } from '../errors/refusals.ts';

export const etagOf = (version: number): string => `"${version}"`;

function tags(header: string): string[] {
  return header.split(',').map((tag) => tag.trim()).filter(Boolean);
}

/** §13.1.2: If-None-Match uses the weak comparison; `*` matches any current record. */
export function notModified(req: Request, version: number): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return tags(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etagOf(version));
}

/**
 * RFC 9110 §13.1.1 and §8.8.3: `*`, or a list of `[W/]"<etagc>*"` separated by commas with optional spaces (empty
 * list elements allowed, §5.6.1.2). Checked here, not by the parameter's schema: a narrower schema would be a
 * breaking change of contract 1.x for clients, while the answer to a malformed header (a 400) is the same.
 */
const ifMatchGrammar = new RegExp(String.raw`^(?:\*|(?:,[ \t]*)*(?:W\/)?"[\x21\x23-\x7E]*"` +
  String.raw`(?:[ \t]*,(?:[ \t]*,)*[ \t]*(?:W\/)?"[\x21\x23-\x7E]*")*(?:[ \t]*,)*)$`, 'u');
const entityTag = /(?:W\/)?"[^"]*"/g;

/**
 * `If-Match` as RFC 9110 reads it: undefined without the header, `'*'`, or its entity tags as written (a tag may hold
 * a comma, so the list is not split on commas). Anything else is a 400 on the header, never a guess.
 */
function ifMatch(req: Request): '*' | string[] | undefined {
  const header = req.get('If-Match');
  if (header === undefined) return undefined;
  if (!ifMatchGrammar.test(header)) throw new BadRequest('error.ifMatch.invalid', {}, {}, 'if-match');
  return header === '*' ? '*' : header.match(entityTag)!;
}

/** §13.1.1: If-Match uses the strong comparison; a mismatch is 412 and nothing is written. */
export function checkIfMatch(req: Request, version: number): void {
  const versions = ifMatchVersions(req);
  if (versions && !versions.includes(version)) throw ifMatchFailed();
}

/**
 * The versions `If-Match` admits, for a write that states them in its WHERE clause; undefined when it admits any
 * (no header, or `*`). A tag that names no version (weak, or not a whole number in plain decimal) admits none.
 */
export function ifMatchVersions(req: Request): number[] | undefined {
  const found = ifMatch(req);
  if (found === undefined || found === '*') return undefined;
  return found.map((tag) => Number(/^"(-?\d{1,15})"$/.exec(tag)?.[1])).filter((version) => Number.isSafeInteger(version)
    && found.includes(etagOf(version)));
}

/**
 * Whether `If-Match` names a version: `*` matches whatever is current, so it states none
 * (docs/behaviour.md#partial-update).
 */
export function ifMatchStatesVersion(req: Request): boolean {
  const found = ifMatch(req);
  return found !== undefined && found !== '*';
}
