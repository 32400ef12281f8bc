// Requests per caller per minute (RATE_LIMIT_PER_MINUTE), counted by this instance: 429 beyond, with the IETF headers.
import type { RequestHandler } from 'express';
import { TooManyRequests } from '../errors/app-errors.ts';
import type { Principal } from '../auth/access-rules.ts';

const windowSeconds = 60;
// Callers counted at once; past this the oldest window is forgotten (its caller starts afresh), so memory stays
// bounded.
const mostCallers = 100_000;

interface Window { count: number; resetsAt: number }

/**
 * A fixed window per caller: the token's subject, else the client's address. Mounted after the token check, so a
 * caller is who the token says, whichever address it comes from. Every answer carries `RateLimit-Policy` and
 * `RateLimit` (draft-ietf-httpapi-ratelimit-headers); one beyond the limit is a 429 with `Retry-After`.
 */
export function rateLimit(limit: number, now: () => number = Date.now): RequestHandler {
  const windows = new Map<string, Window>();
  const policy = `"per-caller";q=${limit};w=${windowSeconds}`;
  return (req, res, next) => {
    const caller = (res.locals.principal as Principal | undefined)?.subject ?? `address ${req.socket.remoteAddress}`;
    const time = now();
    let window = windows.get(caller);
    if (!window || window.resetsAt <= time) {
      if (window) windows.delete(caller);
      else if (windows.size >= mostCallers) windows.delete(windows.keys().next().value!);
      // Re-inserted, so the Map's order is the order windows began in: the first key is the oldest.
      window = { count: 0, resetsAt: time + windowSeconds * 1000 };
      windows.set(caller, window);
    }
    window.count += 1;
    const seconds = Math.ceil((window.resetsAt - time) / 1000);
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', `"per-caller";r=${Math.max(0, limit - window.count)};t=${seconds}`);
    if (window.count > limit) throw new TooManyRequests('error.tooManyRequests', {},
      { 'Retry-After': String(seconds) });
    next();
  };
}
