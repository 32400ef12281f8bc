// Sends a text the server holds in memory (the contract, the changelog, the docs page's script) as a cacheable,
// compressed answer: a content hash as its ETag, revalidated each time, compressed once and kept.
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Under this, a compressed copy saves less than its headers cost (the same threshold as src/http/compression.ts). */
const threshold = 1024;

/** One text, ready to send: its ETag and each content coding's bytes, made once. */
export interface StaticAnswer {
  etag: string;
  identity: Buffer;
  /** Absent for texts under the threshold. */
  encoded?: Promise<{ br: Buffer; gzip: Buffer }>;
}

export function staticAnswer(text: string): StaticAnswer {
  const identity = Buffer.from(text, 'utf8');
  // Weak: the same tag names the text whichever coding carries it (RFC 9110 §8.8.1 allows it for a weak tag only).
  const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  if (identity.length < threshold) return { etag, identity };
  // Off the event loop, at the best level: made once for every later request.
  const encoded = Promise.all([
    brotli(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    gzipped(identity, { level: constants.Z_BEST_COMPRESSION }),
  ]).then(([br, gzip]) => ({ br, gzip }));
  return { etag, identity, encoded };
}

/**
 * Answers GET or HEAD with `answer` as `type`: `Vary: Accept-Encoding`, its ETag, and `cacheControl` (revalidated each
 * use unless said otherwise). A matching If-None-Match is a 304 (express's `res.send` answers it once the ETag is set).
 */
export async function sendStatic(
  req: Request, res: Response, type: string, answer: StaticAnswer, cacheControl = 'no-cache',
): Promise<void> {
  res.vary('Accept-Encoding').set({ ETag: answer.etag, 'Cache-Control': cacheControl }).type(type);
  if (req.fresh || !answer.encoded) {
    res.send(answer.identity);
    return;
  }
  // Ours, not the request's order: browsers list gzip first, and brotli is a fifth smaller.
  const encoding = (['br', 'gzip'] as const).find((coding) => req.acceptsEncodings(coding) === coding);
  if (!encoding) {
    res.send(answer.identity);
    return;
  }
  const encoded = await answer.encoded;
  res.set('Content-Encoding', encoding).send(encoded[encoding]);
}
