// Serves a folder's text files (scripts, styles, pages) compressed once, on first use, and kept: a 1.7 MB script
// costs a second of CPU to compress at the best level, so it is never compressed again per request.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { sendStatic, staticAnswer, type StaticAnswer } from './static-answer.ts';

/** The media types worth compressing, by file extension; other files go on to `next`. */
const textTypes: Record<string, string> = { '.js': 'js', '.css': 'css', '.html': 'html' };

/**
 * For the text files directly under `dir`, found at start (no request path is joined onto the file system
 * unchecked): GET and HEAD answered from memory with a content-hash ETag and `cacheControl`, brotli and gzip made
 * once in the background on first use; meanwhile `next` (the folder's plain static files) answers.
 */
export function compressedOnce(dir: string, cacheControl: string): RequestHandler {
  const names = new Set(readdirSync(dir).filter((name) => textTypes[extname(name)] !== undefined));
  const ready = new Map<string, StaticAnswer>();
  const underWay = new Set<string>();
  const prepare = (name: string) => {
    underWay.add(name);
    readFile(join(dir, name), 'utf8').then(async (text) => {
      const answer = staticAnswer(text);
      await answer.encoded;
      ready.set(name, answer);
    // A failed read is tried again by a later request rather than kept.
    }).catch(() => undefined).finally(() => underWay.delete(name));
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const name = req.path.slice(1);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !names.has(name)) return next();
    const answer = ready.get(name);
    if (answer) return void sendStatic(req, res, textTypes[extname(name)]!, answer, cacheControl).catch(next);
    // Until its compressed copies are made (seconds, once), the file goes on as before: nobody waits for them.
    if (!underWay.has(name)) prepare(name);
    next();
  };
}
