// `Prefer` (RFC 7240): `return=representation` on create and update (§4.2), `count=exact` on lists.
import type { Request, Response } from 'express';
import { sendDocument, sendEmpty } from '../http/send.ts';

/**
 * RFC 7240 §2: preferences are comma-separated `token [= word] *(; parameter)`, names case-insensitive, a value
 * token or quoted; of a preference given twice only the first counts. Others (`respond-async`, `wait`) are ignored.
 */
export function preference(req: Request, wanted: string): string | undefined {
  // Most requests state no preference: nothing to split for them.
  const prefer = req.get('Prefer');
  if (prefer === undefined) return undefined;
  for (const preference of prefer.split(',')) {
    const [name = '', value = ''] = (preference.split(';')[0] ?? '').split('=').map((part) => part.trim());
    if (name.toLowerCase() === wanted) return value.replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

export const prefersRepresentation = (req: Request): boolean => preference(req, 'return') === 'representation';

/** `Prefer: count=exact` (as PostgREST has it): the answer says how many records the filters match. */
export function countIfPreferred(req: Request, res: Response, count: () => Promise<number>): Promise<void> | undefined {
  if (preference(req, 'count') !== 'exact') return undefined;
  return count().then((total) => {
    res.set({ 'X-Total-Count': String(total), 'Preference-Applied': 'count=exact' });
  });
}

/**
 * Ends a create whose headers are set: 201 with no body, or with the new record's detail view when the operation
 * answers it (`create…ReturningRecord`, which `Prefer: return=representation` on a create is answered as);
 * `Preference-Applied` only when `Prefer` asked for it (RFC 7240 §3).
 */
export async function sendCreated(req: Request, res: Response, root: string, withRecord: boolean,
  detailView: () => Promise<unknown>): Promise<void> {
  if (!withRecord) return sendEmpty(res, 201);
  const view = await detailView();
  if (prefersRepresentation(req)) res.set('Preference-Applied', 'return=representation');
  await sendDocument(res, 201, root, view);
}

/**
 * Ends an update (204) whose headers are set: as it is, or, when asked, 200 with the record's detail view and
 * `Preference-Applied` (RFC 7240 §3).
 */
export async function sendWritten(req: Request, res: Response, status: 204, root: string,
  detailView: () => Promise<unknown>): Promise<void> {
  if (!prefersRepresentation(req)) return sendEmpty(res, status);
  const view = await detailView();
  res.set('Preference-Applied', 'return=representation');
  await sendDocument(res, 200, root, view);
}
