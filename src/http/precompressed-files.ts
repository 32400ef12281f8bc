// Serves the `.br`/`.gz` files the web build writes beside each text file (tools/build-web.ts), when the request
// accepts them: compressed once at build time at the best level, never per request.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Each content coding and the suffix of its file, in the order offered. */
const suffixes = new Map([['br', '.br'], ['gzip', '.gz']]);

interface Served { headers?: Record<string, string>; maxAge?: string; immutable?: boolean }

/**
 * For the files under `dir` that have compressed variants: brotli if `Accept-Encoding` accepts it, else gzip, with
 * the original's media type and `Vary: Accept-Encoding`; other paths go on to `next`. Only names found at start are
 * served, so no request path is ever joined onto the file system unchecked.
 */
export function precompressedFiles(dir: string, served: Served = {}): RequestHandler {
  const names = new Set(readdirSync(dir, { recursive: true, encoding: 'utf8' }));
  const variants = new Map<string, string[]>();
  for (const name of names) {
    const available = [...suffixes].filter(([, suffix]) => names.has(`${name}${suffix}`)).map(([encoding]) => encoding);
    if (available.length) variants.set(`/${name.split('\\').join('/')}`, available);
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const available = (req.method === 'GET' || req.method === 'HEAD') ? variants.get(req.path) : undefined;
    if (!available) return next();
    res.vary('Accept-Encoding');
    // The first accepted in our order, not the request's: browsers list gzip before br, which is a fifth smaller.
    const encoding = available.find((coding) => req.acceptsEncodings(coding) === coding);
    const file = join(dir, req.path);
    if (!encoding) return res.sendFile(file, served, (error) => error && next(error));
    res.type(extname(req.path)).set('Content-Encoding', encoding);
    res.sendFile(`${file}${suffixes.get(encoding)}`, served, (error) => error && next(error));
  };
}
