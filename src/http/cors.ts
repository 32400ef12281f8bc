// Cross-origin calls from the browser pages of `CORS_ORIGINS` (exact origins): the Fetch standard's CORS headers.
import type { Request, RequestHandler } from 'express';

// What a cross-origin page may send, and what it may read of an answer beyond the CORS-safelisted headers.
const allowedHeaders =
  'Authorization, Content-Type, Accept, Accept-Language, If-Match, If-None-Match, Prefer, Idempotency-Key, ' +
  'Last-Event-ID, X-Request-Id';
const exposedHeaders =
  'ETag, Location, Link, X-Total-Count, Preference-Applied, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, ' +
  'WWW-Authenticate, Allow, API-Version, Deprecation, Sunset';

const preflights = new WeakSet<Request>();

/**
 * A CORS preflight of an allowed origin, its CORS headers set: the router answers it with the methods of its path
 * (`Access-Control-Allow-Methods`), which only the contract's path table knows.
 */
export const isAdmittedPreflight = (req: Request): boolean => preflights.has(req);

/** Without origins, nothing is added: the API answers only same-origin pages (and non-browser clients). */
export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    if (!allowed.size) return next();
    const origin = req.get('Origin');
    // The answer differs by Origin: caches must keep them apart.
    res.vary('Origin');
    if (!origin || !allowed.has(origin)) return next();
    res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': exposedHeaders });
    // A preflight carries no token: it is answered before the token check, by the router, on a path of the contract.
    if (req.method === 'OPTIONS' && req.get('Access-Control-Request-Method')) {
      res.set({ 'Access-Control-Allow-Headers': allowedHeaders, 'Access-Control-Max-Age': '600' });
      preflights.add(req);
    }
    next();
  };
}
