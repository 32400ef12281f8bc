// `Prefer` (RFC 7240): `return=representation` on create and update (§4.2), `count=exact` on lists.
import type { Request, Response } from 'express';
import { sendDocument, sendEmpty } from '../http/send.ts';

/**
 * RFC 7240 §2: preferences are comma-separated `token [= word] *(; parameter)`, names case-insensitive, a value
 * token or quoted; of a preference given twice only the first counts. Others (`respond-async`, `wait`) are ignored.
 */
export function preference(req: Request, wanted: string): string | undefined {
  for (const preference of (req.get('Prefer') ?? '').split(',')) {
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
 * Ends a create (201) or update (204) whose headers are set: as it is, or, when asked, with the record's detail
 * view (201, or 200 for an update) and `Preference-Applied` (RFC 7240 §3).
 */
export async function sendWritten(req: Request, res: Response, status: 201 | 204, root: string, detailView: () => Promise<unknown>): Promise<void> {
  if (!prefersRepresentation(req)) return sendEmpty(res, status);
  const view = await detailView();
  res.set('Preference-Applied', 'return=representation');
  await sendDocument(res, status === 201 ? 201 : 200, root, view);
}
