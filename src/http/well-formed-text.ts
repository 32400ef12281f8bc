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

/**
 * Every string and member name in `root`, walked with a stack of its own: no body can nest deep enough to overflow it.
 */
function collect(root: unknown, problems: FieldProblem[], at: string[] = []): void {
  const pending: Array<[value: unknown, path: string[]]> = [[root, at]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      const key = !value.isWellFormed() ? 'error.field.loneSurrogate' : value.startsWith('\ufeff')
        ? 'error.field.byteOrderMark' : undefined;
      // A problem in the body's own text (a JSON string as the whole body) is on the body.
      if (key) problems.push({ field: path.join('.') || 'body', key });
    } else if (value && typeof value === 'object') {
      // Pushed in reverse, so problems come out in the body's order.
      for (const [name, item] of Object.entries(value).reverse()) {
        if (!name.isWellFormed()) problems.push({ field: [...path, name.toWellFormed()].join('.'),
          key: 'error.field.loneSurrogate' });
        else pending.push([item, [...path, name]]);
      }
    }
  }
}
