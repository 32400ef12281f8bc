// Every /api call needs a valid access token of the realm (RFC 6750); health and the documents stay open.
import { expect } from 'chai';
import { parse } from 'yaml';
import { sharedService, startService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, buildVessel, createSighting, createVessel, idFromLocation } from '../support/fixtures.ts';
import { tokenFor } from '../support/tokens.ts';
import { accessClaims, realmSigningKid, signedWithForeignKey, startTestRealm, unsignedToken,
  type TestRealm } from '../support/forged-tokens.ts';

const CHALLENGE = 'Bearer realm="sighting"';
const INVALID_CHALLENGE = 'Bearer realm="sighting", error="invalid_token"';
const REQUIRED = { general: 'A valid access token is required.' };
const INVALID = { general: 'The access token is invalid or has expired.' };
const provider = process.env.KEYCLOAK_URL ? 'keycloak' : 'embedded';

/** GET /sighting/-1 with exactly this Authorization header (or none), checked against openapi.yaml. */
function readWith(service: TestService, authorization: string | undefined,
  headers: Record<string, string> = {}): Promise<Response> {
  return rawRequest(service, 'GET', '/sighting/-1',
    { user: null, headers: { ...(authorization && { Authorization: authorization }), ...headers } });
}

async function expectInvalidToken(response: Response): Promise<void> {
  expect(response.status).to.equal(401);
  expect(response.headers.get('www-authenticate')).to.equal(INVALID_CHALLENGE);
  expect(await response.json()).to.deep.equal(INVALID);
}

async function passwordGrant(realm: string, clientId: string, user: string): Promise<Record<string, string>> {
  const response = await fetch(`${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: clientId, username: user,
      password: user, scope: 'openid' }),
  });
  expect(response.status, `password grant for ${clientId}`).to.equal(200);
  return await response.json() as Record<string, string>;
}

const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));

describe(`token check (tokens of the ${provider} provider)`, () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  describe('no or unusable credentials', () => {
    it('when no Authorization header is sent, ' +
      'then 401 with a bare challenge (RFC 6750 §3.1) and the message', async () => {
      const response = await readWith(service, undefined);
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(CHALLENGE);
      expect(await response.json()).to.deep.equal(REQUIRED);
    });

    it('when no token is sent with Accept-Language de, then the message is German', async () => {
      const response = await readWith(service, undefined, { 'Accept-Language': 'de' });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(CHALLENGE);
      expect(await response.json()).to.deep.equal({ general: 'Ein gültiges Zugriffstoken ist erforderlich.' });
    });

    it('when no token is sent and XML is accepted, then the 401 body is XML', async () => {
      const response = await readWith(service, undefined, { Accept: 'text/xml' });
      expect(response.status).to.equal(401);
      expect(response.headers.get('content-type')).to.match(/^text\/xml/);
      expect(await response.text())
        .to.match(/<errors><general>A valid access token is required\.<\/general><\/errors>/);
    });

    it('when a path that does not exist is called without a token, ' +
      'then 401 (nothing under /api is revealed)', async () => {
      const response = await rawRequest(service, 'GET', '/no-such-collection', { user: null });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(CHALLENGE);
      expect(await response.json()).to.deep.equal(REQUIRED);
    });

    it('when the credentials use the Basic scheme, ' +
      'then 401 with a bare challenge (an unsupported method, RFC 6750 §3.1)', async () => {
      const response = await readWith(service, `Basic ${Buffer.from('alice:alice').toString('base64')}`);
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(CHALLENGE);
      expect(await response.json()).to.deep.equal(REQUIRED);
    });

    it('when the Bearer scheme carries no token, then 401 invalid_token', async () => {
      await expectInvalidToken(await readWith(service, 'Bearer '));
    });

    it('when the token is not a JWT, then 401 invalid_token', async () => {
      await expectInvalidToken(await readWith(service, 'Bearer not-a-token'));
    });

    it('when an invalid token is sent with Accept-Language de, then the message is German', async () => {
      const response = await readWith(service, 'Bearer not-a-token', { 'Accept-Language': 'de' });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(INVALID_CHALLENGE);
      expect(await response.json()).to.deep.equal({ general: 'Das Zugriffstoken ist ungültig oder abgelaufen.' });
    });
  });

  describe('tokens the realm did not sign', () => {
    it("when the right claims are signed with another RSA key under the realm's kid, then 401", async () => {
      const token = await signedWithForeignKey(accessClaims(service.realm), await realmSigningKid(service.realm));
      await expectInvalidToken(await readWith(service, `Bearer ${token}`));
    });

    it('when the right claims are signed with another RSA key and no kid, then 401', async () => {
      await expectInvalidToken(await readWith(service,
        `Bearer ${await signedWithForeignKey(accessClaims(service.realm))}`));
    });

    it("when the right claims come unsigned (alg none) under the realm's kid, then 401", async () => {
      const token = unsignedToken(accessClaims(service.realm), await realmSigningKid(service.realm));
      await expectInvalidToken(await readWith(service, `Bearer ${token}`));
    });

    // These fail the signature check too, which masks the claim check; the `test realm` block below
    // signs the same claims with a key the service trusts, so there each claim is the only fault.
    for (const [fault, overrides] of [
      ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }],
      ['of another issuer', { iss: 'http://127.0.0.1:9/realms/other' }],
      ['for another audience', { aud: 'account' }],
    ] as const) {
      it(`when a forged token is ${fault}, then 401`, async () => {
        const token =
          await signedWithForeignKey(accessClaims(service.realm, overrides), await realmSigningKid(service.realm));
        await expectInvalidToken(await readWith(service, `Bearer ${token}`));
      });
    }
  });

  describe('tokens the realm signed, but not access tokens for this API', () => {
    it("when alice's ID token is sent instead of her access token, then 401", async () => {
      const { id_token: idToken } = await passwordGrant(service.realm, 'sighting-cli', 'alice');
      // Signed by the realm and issued by it; but its audience is the client and it is not of type Bearer.
      expect(claimsOf(idToken ?? '')).to.include({ iss: service.realm, aud: 'sighting-cli' });
      await expectInvalidToken(await readWith(service, `Bearer ${idToken}`));
    });

    it("when an access token of the realm's admin-cli client (no sighting-api audience) is sent, " +
      "then 401", async function () {
      // Keycloak's built-in admin-cli has no audience mapper; the embedded provider offers only the realm's own
      // clients.
      if (provider === 'embedded') this.skip();
      const { access_token: token } = await passwordGrant(service.realm, 'admin-cli', 'alice');
      const claims = claimsOf(token ?? '');
      expect(claims).to.include({ iss: service.realm, typ: 'Bearer', azp: 'admin-cli' });
      expect([claims.aud ?? []].flat()).not.to.include('sighting-api');
      await expectInvalidToken(await readWith(service, `Bearer ${token}`));
    });
  });

  describe('a valid token', () => {
    it('when alice sends her access token, then she can create a sighting and read it back', async () => {
      const vesselId = await createVessel(service, buildVessel({ vesselName: { en: 'Token Cutter' } }));
      const api = await apiClient(service);
      const body = buildSighting({ vessel: { vesselId } });
      const created = await api.POST('/sighting', { body });
      expect(created.response.status).to.equal(201);
      const id = idFromLocation(created.response.headers.get('location'));
      const { data, response } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(response.status).to.equal(200);
      expect(data).to.deep.equal({
        version: 0, sightingId: id, sightingMemo: body.sightingMemo,
        vessel: { version: 0, vesselId, vesselName: 'Token Cutter' }, sightingTimezone: null, sightingDate: null,
      });
    });

    it('when the scheme is written in lower case (auth schemes are case-insensitive, RFC 9110 §11.1), ' +
      'then 200', async () => {
      const id = await createSighting(service);
      const response = await rawRequest(service, 'GET', `/sighting/${id}`,
        { user: null, headers: { Authorization: `bearer ${await tokenFor(service.realm, 'alice')}` } });
      expect(response.status).to.equal(200);
      expect(await response.json()).to.include({ sightingId: id });
    });
  });

  describe('open endpoints', () => {
    const open = async (path: string) => fetch(`${service.url}${path}`);

    it('when /health/live is called without a token, then 200 UP', async () => {
      const response = await open('/health/live');
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ status: 'UP' });
    });

    it('when /health/ready is called without a token, then 200 with each component UP', async () => {
      const response = await open('/health/ready');
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ status: 'UP',
        components: { database: 'UP', migrations: 'UP', identityProvider: 'UP', changeFeed: 'UP' } });
    });

    it('when /openapi.yaml is called without a token, then the contract comes back', async () => {
      const response = await open('/openapi.yaml');
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/yaml/);
      expect(await response.text()).to.match(/^openapi: 3\.1\.0\n/);
    });

    it('when /docs is called without a token, then the Swagger UI page comes back', async () => {
      const response = await open('/docs');
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/html/);
      expect(await response.text()).to.contain('<div id="swagger-ui"></div>');
    });
  });
});

describe('token check, each claim alone (a test realm whose signing key the test holds)', () => {
  let realm: TestRealm;
  let service: TestService;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    realm = await startTestRealm();
    service = await startService({ KEYCLOAK_URL: realm.url });
  });
  after(async () => {
    await service?.stop();
    await realm?.close();
  });

  const read = async (token: string) => readWith(service, `Bearer ${token}`);

  it('when every claim is right, then 200 (so each case below fails for its one claim only)', async () => {
    const response = await read(await realm.token());
    expect(response.status).to.equal(200);
    expect(await response.json()).to.include({ sightingId: -1 });
  });

  it('when the audience is a list that contains sighting-api, then 200', async () => {
    expect((await read(await realm.token({ aud: ['account', 'sighting-api'] }))).status).to.equal(200);
  });

  it('when the token has expired, then 401', async () => {
    await expectInvalidToken(await read(await realm.token({ iat: now() - 400, exp: now() - 100 })));
  });

  it('when the token has no exp, then 401 (RFC 9068 §2.2 requires it)', async () => {
    await expectInvalidToken(await read(await realm.token({ exp: undefined })));
  });

  it('when the token is not valid yet (nbf in the future, RFC 7519 §4.1.5), then 401', async () => {
    await expectInvalidToken(await read(await realm.token({ nbf: now() + 300 })));
  });

  it('when the issuer is another realm, then 401', async () => {
    await expectInvalidToken(await read(await realm.token({ iss: `${realm.url}/realms/other` })));
  });

  it('when the audience is another client, then 401', async () => {
    await expectInvalidToken(await read(await realm.token({ aud: 'account' })));
  });

  it('when the token has no audience, then 401', async () => {
    await expectInvalidToken(await read(await realm.token({ aud: undefined })));
  });

  it('when the token type is ID rather than Bearer, then 401', async () => {
    await expectInvalidToken(await read(await realm.token({ typ: 'ID' })));
  });

  it('when the token has no subject, then 401', async () => {
    await expectInvalidToken(await read(await realm.token({ sub: undefined })));
  });

  it("when the right claims come unsigned (alg none) under the realm's kid, then 401", async () => {
    await expectInvalidToken(await read(unsignedToken(accessClaims(realm.issuer),
      await realmSigningKid(realm.issuer))));
  });

  it('when the header carries an extension parameter the service does not use, ' +
    'then 200 (so the cases below fail for crit alone)', async () => {
    expect((await read(await realm.tokenWithHeader({ 'urn:example:ext': 1 }))).status).to.equal(200);
  });

  // RFC 7515 §4.1.11: a recipient that does not understand an extension `crit` lists MUST refuse the JWS.
  for (const [what, crit] of [['a list of an unknown extension', ['urn:example:ext']], ['an empty list', []],
    ['a list of a name the RFC itself defines', ['kid']], ['a text, not a list', 'urn:example:ext']] as const) {
    it(`when the header's crit is ${what}, then 401 invalid_token`, async () => {
      await expectInvalidToken(await read(await realm.tokenWithHeader({ 'urn:example:ext': 1, crit })));
    });
  }

  it('when the signature is of other claims (payload swapped), then 401', async () => {
    const [header, , signature] = (await realm.token()).split('.');
    const [, payload] = (await realm.token({ realm_access: { roles: ['reader', 'writer', 'admin'] } })).split('.');
    await expectInvalidToken(await read(`${header}.${payload}.${signature}`));
  });

  // Claims are JSON: a signed token may hold an object or a number where a text is read.
  for (const [what, sub] of [['an operator object', { $ne: 'nobody' }], ['a number', 42],
    ['an empty text', '']] as const) {
    it(`when the subject is ${what}, then 401 (never a filter, never a 500)`, async () => {
      await expectInvalidToken(await read(await realm.token({ sub })));
      const mine = await fetch(`${service.api}/sighting?mine=true`,
        { headers: { Authorization: `Bearer ${await realm.token({ sub })}` } });
      expect(mine.status).to.equal(401);
    });
  }

  it('when the roles are not a list of texts, then only the texts among them count', async () => {
    expect((await read(await realm.token({ realm_access: { roles: 'reader' } }))).status).to.equal(403);
    expect((await read(await realm.token({ realm_access: { roles: [{ name: 'reader' }, 7] } }))).status).to.equal(403);
    expect((await read(await realm.token({ realm_access: { roles: [{ name: 'admin' }, 'reader'] } }))).status)
      .to.equal(200);
  });

  it('when preferred_username is not a text, then the subject stands for it in the history', async () => {
    const sub = 'typed-claims-subject';
    const headers = { Authorization: `Bearer ${await realm.token({ sub, preferred_username: { $gt: '' } })}`,
      'Content-Type': 'application/json' };
    const created = await fetch(`${service.api}/sighting`,
      { method: 'POST', headers, body: JSON.stringify({ vessel: { vesselId: -1 }, sightingMemo: 'typed claims' }) });
    expect(created.status).to.equal(201);
    const admin = { Authorization: `Bearer ${await realm.token({ realm_access: { roles: ['reader', 'admin'] } })}` };
    const versions = await fetch(
      `${service.api}${new URL(created.headers.get('Location')!, service.url).pathname.replace(/^\/api/, '')}/versions`,
      { headers: admin });
    expect((await versions.json() as { changedBy: string }[]).map(({ changedBy }) => changedBy)).to.deep.equal([sub]);
  });

  it('when a valid token carries no realm roles, then the caller is known but forbidden to read (403)', async () => {
    const response = await read(await realm.token({ realm_access: undefined }));
    expect(response.status).to.equal(403);
    expect(await response.json()).to.deep.equal({ general: 'You are not allowed to do this.' });
  });
});

describe('openapi.yaml declares the security it enforces', () => {
  type Operation = { security?: unknown; responses?: Record<string, { $ref?: string }> };
  let document: {
    security?: unknown;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, Record<string, unknown>>;
      responses: Record<string, { headers?: object }> };
  };
  let realm: string;

  before(async () => {
    const service = await sharedService();
    realm = service.realm;
    // As served: the OAuth URLs are rewritten to the realm this instance trusts.
    document = parse(await (await fetch(`${service.url}/openapi.yaml`)).text()) as typeof document;
  });

  it('when the security schemes are read, ' +
    'then a JWT bearer scheme and OAuth 2.0 with the flows the realm\'s server offers', () => {
    const { bearer, oauth2 } = document.components.securitySchemes;
    expect(bearer).to.include({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(oauth2?.type).to.equal('oauth2');
    const endpoint = (name: string) => `${realm}/protocol/openid-connect/${name}`;
    expect(oauth2?.flows).to.deep.equal({
      authorizationCode: { authorizationUrl: endpoint('auth'), tokenUrl: endpoint('token'),
        refreshUrl: endpoint('token'), scopes: {} },
      // Keycloak offers implicit (sighting-legacy); the embedded provider does not.
      ...(process.env.KEYCLOAK_URL && { implicit: { authorizationUrl: endpoint('auth'), scopes: {} } }),
      password: { tokenUrl: endpoint('token'), refreshUrl: endpoint('token'), scopes: {} },
      clientCredentials: { tokenUrl: endpoint('token'), scopes: {} },
    });
  });

  it('when the global security is read, ' +
    'then the one bearer requirement holds everywhere and no operation opts out', () => {
    expect(document.security).to.deep.equal([{ bearer: [] }]);
    const optOuts = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item)
      .filter(([, operation]) => operation.security !== undefined).map(([method]) => `${method} ${path}`));
    expect(optOuts).to.deep.equal([]);
  });

  it('when every operation is read, then each documents 401 and 403 with the shared responses', () => {
    const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
    const missing = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item)
      .filter(([method]) => methods.has(method))
      .filter(([, operation]) => operation.responses?.['401']?.$ref !== '#/components/responses/Unauthorized'
        || operation.responses?.['403']?.$ref !== '#/components/responses/Forbidden')
      .map(([method]) => `${method} ${path}`));
    expect(missing).to.deep.equal([]);
    expect(document.components.responses.Unauthorized?.headers).to.have.property('WWW-Authenticate');
  });
});
