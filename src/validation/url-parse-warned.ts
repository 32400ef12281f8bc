// Has node's url.parse give its one deprecation warning (DEP0169) now, silently, so it stops looking at its callers.
import { parse } from 'node:url';

/**
 * Until url.parse has warned once, Node 24 captures the caller's stack on every call to see whether it comes from
 * node_modules, where it never warns: express-openapi-validator calls it on every request (its query parameters'
 * check), so every request paid for a stack capture (about 11 µs, indicative). One call from here, outside
 * node_modules, spends the warning with deprecation warnings muted for that call alone.
 * test/architecture/library-patches.test.ts fails when url.parse no longer decides so.
 */
export function spendUrlParseWarning(): void {
  const muted = process.noDeprecation;
  process.noDeprecation = true;
  try {
    parse('/');
  } finally {
    process.noDeprecation = muted;
  }
}
