// Guards "one request, one resolution" (docs/architecture.md): an API request tries no express route and no router
// layer in vain, and no path pattern is compiled for it, neither by express nor by express-openapi-validator.
import { expect } from 'chai';
import { createRequire } from 'node:module';
import { sharedService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';

interface Layer { match(path: string): boolean; route?: unknown; handle: { stack?: Layer[] } }

const counts = { routesTried: 0, triedInVain: 0, compiles: 0 };
/**
 * The path asked, as a router mounted anywhere sees it (its end): only its request's matches are counted. Others reach
 * the shared service meanwhile, such as its own periodic fetch of the embedded provider's keys.
 */
let askedPath = '';

/** Counts every layer's match through the routers' public `stack`, the app's own and each router mounted in it. */
function countMatches(stack: Layer[]): void {
  for (const layer of stack) {
    const match = layer.match;
    layer.match = function counted(this: Layer, path: string) {
      const matched = match.call(this, path);
      if (!path.endsWith(askedPath) && !askedPath.endsWith(path)) return matched;
      if (this.route) counts.routesTried += 1;
      if (!matched) counts.triedInVain += 1;
      return matched;
    };
    if (Array.isArray(layer.handle.stack)) countMatches(layer.handle.stack);
  }
}

/** Counts path-to-regexp's compiles, in the copy express-openapi-validator loads (it compiled on every request). */
function countCompiles(): void {
  const requireFromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const pathToRegexp = requireFromValidator('path-to-regexp') as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['pathToRegexp', 'match', 'compile', 'parse']) {
    const compile = pathToRegexp[name];
    expect(compile, `path-to-regexp exports ${name}`).to.be.a('function');
    pathToRegexp[name] = (...args: unknown[]) => {
      counts.compiles += 1;
      return compile!(...args);
    };
  }
}

describe('one resolution per request', () => {
  let service: TestService;
  let admin: string;
  before(async () => {
    service = await sharedService();
    admin = await tokenFor(service.realm, 'admin');
    countMatches(service.web.app!.router.stack as unknown as Layer[]);
    countCompiles();
  });

  const call = async (method: string, path: string, body?: unknown, token: string | null = admin,
    type = 'application/json') => {
    Object.assign(counts, { routesTried: 0, triedInVain: 0, compiles: 0 });
    askedPath = path;
    const response = await fetch(`${service.api}${path}`, {
      method,
      headers: { ...(token && { Authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'Content-Type': type }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return { status: response.status, allow: response.headers.get('allow'), ...counts };
  };

  it('when each kind of operation is asked for, ' +
    'then no route is tried, no layer in vain, and no path is compiled', async () => {
    const created = await fetch(`${service.api}/vessel`, {
      method: 'POST', headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ vesselName: { en: 'Resolved once' } }),
    });
    const id = created.headers.get('location')!.split('/').pop();
    const asked: Array<[string, string, unknown, number, string?]> = [
      ['GET', '/sighting/-1', undefined, 200],
      ['GET', '/sighting', undefined, 200],
      ['POST', '/sighting/qbe', {}, 200],
      ['GET', '/sighting/-1/versions', undefined, 200],
      ['GET', '/sighting/-1/versions/0', undefined, 200],
      ['HEAD', '/vessel/-1', undefined, 200],
      ['PATCH', `/vessel/${id}`, { vesselName: { de: 'Einmal' }, version: 0 }, 204, 'application/merge-patch+json'],
      ['PUT', `/vessel/${id}`, { vesselId: Number(id), version: 1, vesselName: { en: 'Resolved once' } }, 204],
      ['DELETE', `/vessel/${id}`, undefined, 204],
      ['POST', '/sighting/-1', {}, 405],
      ['GET', '/nothing', undefined, 404],
    ];
    for (const [method, path, body, status, type] of asked) {
      expect(await call(method, path, body, admin, type), `${method} ${path}`)
        .to.deep.include({ status, routesTried: 0, triedInVain: 0, compiles: 0 });
    }
  });

  it('when a path of the contract is asked with a method it does not have, ' +
    'then 405 with exactly its methods in Allow', async () => {
    expect(await call('GET', '/sighting/qbe')).to.deep.include({ status: 405, allow: 'POST, OPTIONS' });
    expect(await call('POST', '/sighting/-1/versions')).to.deep.include({ status: 405, allow: 'GET, HEAD, OPTIONS' });
  });

  it('when OPTIONS is asked of a path of the contract, ' +
    'then 200 with that Allow, without a token; elsewhere a token first, then 404', async () => {
    expect(await call('OPTIONS', '/sighting/qbe', undefined, null))
      .to.deep.include({ status: 200, allow: 'POST, OPTIONS', compiles: 0 });
    expect(await call('OPTIONS', '/sighting/-1', undefined, null))
      .to.deep.include({ status: 200, allow: 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS' });
    expect(await call('OPTIONS', '/sighting', undefined, null))
      .to.deep.include({ status: 200, allow: 'GET, POST, HEAD, OPTIONS' });
    expect(await call('OPTIONS', '/nothing', undefined, null)).to.deep.include({ status: 401 });
    expect(await call('OPTIONS', '/nothing')).to.deep.include({ status: 404 });
  });
});
