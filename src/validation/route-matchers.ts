// Compiles each route pattern the request validator matches once, instead of on every request.
import { createRequire } from 'node:module';

type Flags = { sensitive?: boolean; strict?: boolean };
type PathToRegexp = ((path: unknown, flags?: Flags) => unknown) & { compilesOnce?: true };

/**
 * express-openapi-validator 5.6's route lookup calls path-to-regexp's `pathToRegexp` for every route of the contract
 * on every request (upstream pull request #1217 caches them). The same route and flags compile to the same result:
 * a RegExp without the `g` flag (so `exec` keeps no state) and its keys, which the validator only reads. So each is
 * compiled once. Remove this once the validator caches its matchers.
 */
export function compileRouteMatchersOnce(): void {
  // The validator's own copy of path-to-regexp, as the validator resolves it.
  const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const library = fromValidator('path-to-regexp') as { pathToRegexp: PathToRegexp };
  if (library.pathToRegexp.compilesOnce) return;
  const compile = library.pathToRegexp;
  const compiled = new Map<string, unknown>();
  library.pathToRegexp = Object.assign((path: unknown, flags: Flags = {}) => {
    // The validator passes a route string and these two flags; any other call is compiled as before.
    if (typeof path !== 'string' || Object.keys(flags).some((flag) => flag !== 'sensitive' && flag !== 'strict')) return compile(path, flags);
    const key = `${flags.sensitive ? 'S' : 's'}${flags.strict ? 'T' : 't'}${path}`;
    let result = compiled.get(key);
    if (result === undefined) compiled.set(key, result = compile(path, flags));
    return result;
  }, { compilesOnce: true as const });
}
