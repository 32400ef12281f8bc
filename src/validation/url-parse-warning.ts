// Stops Node from looking for the caller of the request validator's `url.parse` on every request.
import url from 'node:url';

/**
 * express-openapi-validator 5.6 calls the deprecated `url.parse` once per request. Node 24 warns about it once,
 * but only for a caller outside node_modules, and finds the caller from a stack trace on each call until that
 * warning is given: about 4 µs, a few percent of a read. One call from here, with deprecation warnings silenced for
 * its duration, gives the warning unheard; later calls skip the check. Remove with the validator's call (it could
 * use `new URL`).
 */
export function settleUrlParseWarning(): void {
  const silenced = process.noDeprecation;
  process.noDeprecation = true;
  try {
    url.parse('/');
  } finally {
    process.noDeprecation = silenced;
  }
}
