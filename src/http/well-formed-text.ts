// Refuses texts that the database would silently change: lone surrogates and a leading byte order mark.
import type { RequestHandler } from 'express';
import { ValidationFailed, type FieldProblem } from '../errors/app-errors.ts';

/**
 * A JSON string may escape a lone surrogate (`"\ud800"`, RFC 8259 §8.2), which is no character: stored, it became
 * U+FFFD. A leading U+FEFF is dropped by PGlite's text decoding, so `"\ufeffa"` passed a 2-character minimum as
 * `"a"`. Both are a 400 on the field (query parameters included), never a changed value, on every backend.
 */
export const wellFormedText: RequestHandler = (req, _res, next) => {
  const problems: FieldProblem[] = [];
  if (!checkedBodies.has(req.body as object)) collect(req.body, problems);
  collect(req.query, problems);
  if (problems.length) throw new ValidationFailed(problems);
  next();
};

/** Bodies whose parts were checked as they were read (a batch's records, src/http/batch-body.ts). */
const checkedBodies = new WeakSet<object>();

/** `body` was checked part by part with `illFormedText`: the request's check leaves it. */
export function checkedAsRead(body: object): void {
  checkedBodies.add(body);
}

/** The problems of one part of a body (a batch's record), its fields named below `path` as the whole body's are. */
export function illFormedText(part: unknown, path: string[], problems: FieldProblem[]): void {
  collect(part, problems, path);
}

/** A member being walked: its object's own names, the next one's index, and where the object itself is. */
interface Frame {
  value: Record<string, unknown>;
  names: string[];
  next: number;
  name: string;
  parent: Frame | undefined;
}

/** The text's problem, if it has one. */
function problemOf(text: string): FieldProblem['key'] | undefined {
  return !text.isWellFormed() ? 'error.field.loneSurrogate' : text.startsWith('\ufeff')
    ? 'error.field.byteOrderMark' : undefined;
}

/** The field's name, `name` within the object `frame` walks: made only for a problem. */
function fieldName(at: readonly string[], frame: Frame, name: string): string {
  const names = [name];
  for (let object: Frame | undefined = frame; object?.parent; object = object.parent) names.push(object.name);
  // A problem in the body's own text (a JSON string as the whole body) is on the body.
  return [...at, ...names.reverse()].join('.') || 'body';
}

/**
 * Every string and member name in `root`, walked depth first in the body's order with a stack of its own (no body
 * can nest deep enough to overflow it): one frame per object, and a field's path made only when it has a problem.
 */
function collect(root: unknown, problems: FieldProblem[], at: readonly string[] = []): void {
  if (typeof root === 'string') {
    const key = problemOf(root);
    if (key) problems.push({ field: at.join('.') || 'body', key });
    return;
  }
  if (!root || typeof root !== 'object') return;
  const value = root as Record<string, unknown>;
  let frame: Frame | undefined = { value, names: Object.keys(value), next: 0, name: '', parent: undefined };
  while (frame) {
    if (frame.next === frame.names.length) {
      frame = frame.parent;
      continue;
    }
    const name = frame.names[frame.next++]!;
    const item = frame.value[name];
    if (!name.isWellFormed()) {
      problems.push({ field: fieldName(at, frame, name.toWellFormed()), key: 'error.field.loneSurrogate' });
    } else if (typeof item === 'string') {
      const key = problemOf(item);
      if (key) problems.push({ field: fieldName(at, frame, name), key });
    } else if (item && typeof item === 'object') {
      const object = item as Record<string, unknown>;
      frame = { value: object, names: Object.keys(object), next: 0, name, parent: frame };
    }
  }
}
