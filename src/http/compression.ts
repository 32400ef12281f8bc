// Compresses answers of 1 KB and more with brotli or gzip, as the request's Accept-Encoding prefers (RFC 9110 §8.4),
// with `Vary: Accept-Encoding`. The `compression` package keeps write()'s return value and 'drain' events, so a
// streamed list's back-pressure (src/http/send.ts) holds through it. Never an event stream: each event must leave at
// once, and a compressor holds bytes back until its block fills.
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

// `compressible` (mime-db) does not know YAML's media types; any text is worth compressing.
const textTypes = /^(text\/|application\/([\w.-]+\+)?yaml\b)/;
const isText = (res: Response): boolean => textTypes.test(String(res.getHeader('Content-Type') ?? ''));
const isEventStream = (res: Response): boolean =>
  String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream');

/**
 * A request without Accept-Encoding is answered as it is whatever its size (the `compression` package's default
 * `identity`), so it gets no wrapper: the wrapper's write, end and listener overrides and its negotiation cost each
 * request, and held a streamed answer's objects past young-generation collections (docs/benchmarks.md). It only
 * states that the answer varies by the header, as the wrapper would have.
 */
export function compressAnswers(): RequestHandler {
  const compress = compression({
    threshold: 1024,
    filter: (req: Request, res: Response) => !isEventStream(res) && (isText(res) || compression.filter(req, res)),
  });
  return (req, res, next) => {
    if (req.headers['accept-encoding'] !== undefined) return compress(req, res, next);
    res.vary('Accept-Encoding');
    next();
  };
}

/**
 * Sends at once what the answer's compressor holds (the `compression` package's `res.flush`): the start of a long
 * answer whose next bytes may be a while away. Nothing to do on an answer that is not compressed.
 */
export function flushCompressed(res: Response): void {
  (res as Partial<Pick<Response, 'flush'>>).flush?.();
}
