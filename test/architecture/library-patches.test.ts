// Guards, in the default (PGlite) run, what the service's workarounds of library internals rely on
// (docs/architecture.md, "Workarounds of libraries"): each fails when the library changes under its workaround.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Server as HttpServer } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';
import { parse } from 'node:url';
import { generateKeyPairSync } from 'node:crypto';
import pg from 'pg';
import Keycloak from 'keycloak-connect';
import Provider from 'oidc-provider';
import { SignJWT } from 'jose';
import { isCursor } from '../../src/db/bounded-cursor.ts';

const require = createRequire(import.meta.url);
// pg-cursor ships no types; only the shape bounded-cursor.ts relies on is asked of it.
const Cursor = require('pg-cursor') as new (text: string) => { read: unknown; close: unknown; submit: unknown };
/** The installed version of a package, read from its package.json next to its main file. */
function installedVersion(name: string): string {
  let folder = require.resolve(name);
  for (;;) {
    folder = folder.slice(0, folder.lastIndexOf('/'));
    try {
      const manifest = JSON.parse(readFileSync(`${folder}/package.json`, 'utf8')) as { name?: string; version: string };
      if (manifest.name === name) return manifest.version;
    } catch { /* not the package's folder yet */ }
  }
}

describe('workarounds of library internals: what they rely on', () => {
  it('when pg is not the version src/db/bounded-waits.ts was checked against, '
    + 'then this fails (its query_timeout leaves the connection in use)', () => {
    // A pg.Client subclass bounds each statement and tears its socket down: pg's own query_timeout fails the statement
    // but keeps the connection, the late answer still owed (brianc/node-postgres#3399). Re-check both, then this.
    expect(installedVersion('pg')).to.equal('8.23.1');
    expect(pg.Client.prototype.query).to.be.a('function');
    let made: Socket | undefined;
    const client = new pg.Client({ stream: () => (made = new Socket()) });
    expect(made, 'pg makes its connection over the socket the `stream` option gives').to.be.instanceOf(Socket);
    expect(client).to.be.instanceOf(pg.Client);
  });

  it('when pg-pool is not the version src/db/bounded-waits.ts was checked against, '
    + 'then this fails (it discards a client released while it ends)', () => {
    // A connection torn down is ended (Client#end) before whoever holds it releases it: pg-pool 3.14.0 then removes
    // it instead of handing it to the next request (its `_release` checks `_ending`). Re-check that, and
    // test/api/list-connection-lost.test.ts, then this.
    expect(installedVersion('pg-pool')).to.equal('3.14.0');
  });

  it('when pg\'s Client no longer keeps the session\'s cancel key as processID and secretKey, '
    + 'then this fails (src/db/bounded-waits.ts sends it, src/db/pooler-probe.ts reads it)', () => {
    // pg's own Client#cancel sends them; its types do not declare them. Behind PgBouncer the service's cancel request
    // (src/db/cancel-request.ts) is the only way a statement it gave up on ends on a server without a bound of its own.
    const client = new pg.Client();
    expect({ processID: Object.hasOwn(client, 'processID'), secretKey: Object.hasOwn(client, 'secretKey') })
      .to.deep.equal({ processID: true, secretKey: true });
    expect((client as unknown as { cancel: unknown }).cancel).to.be.a('function');
  });

  it('when pg-cursor is not the version src/db/bounded-cursor.ts was checked against, or its cursor has no read, '
    + 'close and submit, then this fails', () => {
    // Each read and the close of a cursor are bounded by replacing them on the cursor object (pg-cursor has no
    // timeout).
    expect(installedVersion('pg-cursor')).to.equal('2.22.0');
    const cursor = new Cursor('select 1');
    expect(isCursor(cursor)).to.equal(true);
    expect(cursor.read).to.be.a('function');
    expect(cursor.close).to.be.a('function');
  });

  it('when node\'s HTTP server no longer has httpAllowHalfOpen (off by default), '
    + 'then this fails (src/lifecycle/service-ports.ts sets it)', () => {
    // No public option of http.createServer does it in Node 24: net's allowHalfOpen is always on below the HTTP layer.
    const server = new HttpServer();
    expect(Object.hasOwn(server, 'httpAllowHalfOpen')).to.equal(true);
    expect((server as HttpServer & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen).to.equal(false);
  });

  it('when http\'s close no longer differs from net\'s, '
    + 'then this fails (src/http/drain.ts closes the listener only, with net\'s)', () => {
    // Since Node 19 http.Server#close also ends idle connections (nodejs/node#41578); the drain ends them itself,
    // later.
    expect(HttpServer.prototype.close).to.not.equal(NetServer.prototype.close);
    expect(new HttpServer()).to.be.instanceOf(NetServer);
  });

  it('when node\'s url.parse no longer checks its caller only until it has warned, '
    + 'then this fails (src/validation/url-parse-warned.ts spends the warning)', () => {
    // Node 24's lib/url.js: `if (!urlParseWarned && !isInsideNodeModules(…))`; the stack is looked at only before the
    // warning.
    expect(parse.toString()).to.match(/if \(!urlParseWarned && !isInsideNodeModules\(/);
  });

  it('when keycloak-connect is not the version src/auth/token-check.ts was checked against, '
    + 'or a grant\'s Token no longer keeps the verified claims in `content`, then this fails', async () => {
    // Its typings leave `content` out (keycloak/keycloak-nodejs-connect#442); token-check.ts reads the claims there.
    // The key is handed over as `realm-public-key` (src/auth/realm-keys.ts): an unreachable server proves no fetch.
    expect(installedVersion('keycloak-connect')).to.equal('26.1.1');
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const issuer = 'http://127.0.0.1:9/realms/guard';
    const keycloak = new Keycloak({}, {
      realm: 'guard', 'auth-server-url': 'http://127.0.0.1:9', resource: 'api', 'bearer-only': true,
      'verify-token-audience': true, 'ssl-required': 'none', 'confidential-port': 0,
      'realm-public-key': publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    } as never);
    const exp = Math.floor(Date.now() / 1000) + 60;
    const claims = { typ: 'Bearer', iss: issuer, aud: 'api', sub: 'guard-subject', exp };
    const token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'any' }).sign(privateKey);
    const grant = await keycloak.grantManager.createGrant(JSON.stringify({ access_token: token }));
    expect((grant.access_token as unknown as { content: unknown }).content).to.deep.equal(claims);
  });

  it('when oidc-provider is not the version src/dev-provider/index.ts was checked against, '
    + 'or its clients no longer ask redirectUriAllowed, then this fails', () => {
    // The embedded provider replaces Client.prototype.redirectUriAllowed with the realm's patterns (the library's own
    // recipe, recipes/redirect_uri_wildcards.md); its authorization endpoint must still ask that method.
    expect(installedVersion('oidc-provider')).to.equal('9.13.3');
    const provider = new Provider('http://127.0.0.1:9', {});
    expect(provider.Client.prototype.redirectUriAllowed).to.be.a('function');
    const folder = require.resolve('oidc-provider').replace(/lib\/index\.js$/, '');
    const check = readFileSync(`${folder}lib/actions/authorization/response_parameters.js`, 'utf8');
    expect(check).to.match(/ctx\.oidc\.client\.redirectUriAllowed\(ctx\.oidc\.params\.redirect_uri\)/);
  });
});
