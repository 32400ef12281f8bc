// Against a real Keycloak: the realm export's hardening, and the service following a key rotation.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startService, type TestService } from '../support/service.ts';
import { eventually } from '../support/condition.ts';
import { accessClaims, signedWithForeignKey } from '../support/forged-tokens.ts';
import { copyOfSightingRealm, type RealmCopy } from '../support/keycloak-admin.ts';

const keycloakUrl = process.env.KEYCLOAK_URL?.replace(/\/$/, '');
// The realm export's failureFactor.
const FAILURE_FACTOR = 5;

const kidOf = (jwt: string): string => {
  const header = Buffer.from(jwt.split('.')[0]!, 'base64url').toString('utf8');
  return (JSON.parse(header) as { kid: string }).kid;
};

async function accessToken(response: Response): Promise<string> {
  expect(response.status).to.equal(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('Keycloak: the realm export\'s hardening', function () {
  let realm: RealmCopy;
  before(async function () {
    if (!keycloakUrl) return this.skip();
    realm = await copyOfSightingRealm(keycloakUrl);
  });
  after(async () => { await realm?.remove(); });

  it(`when ${FAILURE_FACTOR} password grants of a user fail, then Keycloak locks the user, right password too`,
    async () => {
    await accessToken(await realm.passwordGrant('bob', 'bob'));
    for (let i = 0; i < FAILURE_FACTOR; i += 1) {
      expect((await realm.passwordGrant('bob', `guess-${i}`)).status).to.equal(401);
    }
    const [bob] = await (await realm.admin('GET', '/users?exact=true&username=bob')).json() as { id: string }[];
    // Keycloak counts failures on a queue of its own: wait until it says the user is locked.
    const lock = async () => (await realm.admin('GET', `/attack-detection/brute-force/users/${bob!.id}`)).json();
    await eventually(async () => ((await lock()) as { disabled: boolean }).disabled);
    const refused = await realm.passwordGrant('bob', 'bob');
    expect(refused.status).to.be.oneOf([400, 401]);
    expect(await refused.json()).to.include({ error: 'invalid_grant' });
  });

  it('when a refresh token has been redeemed, then redeeming it again is refused (rotation)', async () => {
    const first = await realm.passwordGrant('alice', 'alice');
    const { refresh_token: refreshToken } = await first.json() as { refresh_token: string };
    const redeem = () => fetch(`${realm.issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token', client_id: 'sighting-cli', refresh_token: refreshToken,
      }),
    });
    expect((await redeem()).status).to.equal(200);
    const again = await redeem();
    expect(again.status).to.equal(400);
    expect(await again.json()).to.include({ error: 'invalid_grant' });
  });

  it('when a password breaks the policy, then Keycloak refuses to set it', async () => {
    const [alice] = await (await realm.admin('GET', '/users?exact=true&username=alice')).json() as { id: string }[];
    const short = { type: 'password', value: 'short', temporary: false };
    const reset = await realm.admin('PUT', `/users/${alice!.id}/reset-password`, short);
    expect(reset.status).to.equal(400);
  });
});

describe('Keycloak: a key rotated and deleted through the admin REST API', function () {
  let realm: RealmCopy;
  let service: TestService;
  before(async function () {
    if (!keycloakUrl) return this.skip();
    realm = await copyOfSightingRealm(keycloakUrl);
    service = await startService({
      KEYCLOAK_URL: keycloakUrl,
      KEYCLOAK_REALM: realm.name,
      // Test-sized: keys refreshed every second; a fetch spacing far above the test's waits.
      REALM_KEYS_REFRESH_MS: '1000',
      REALM_KEYS_MIN_FETCH_INTERVAL_MS: '5000',
    });
  });
  after(async () => {
    await service?.stop();
    await realm?.remove();
  });

  const read = (token: string) => fetch(`${service.api}/sighting/-1`, {
    headers: { Authorization: `Bearer ${token}` },
  });

  it('when a random key id came first, then a token of a new key is 200; the deleted key\'s is soon refused',
    async () => {
    const oldToken = await accessToken(await realm.passwordGrant('alice', 'alice'));
    const oldKid = kidOf(oldToken);
    expect((await read(oldToken)).status).to.equal(200);

    // Anyone can send a token naming a key id the realm never had.
    const random = await signedWithForeignKey(accessClaims(realm.issuer), randomUUID());
    expect((await read(random)).status).to.equal(401);

    const { id: realmId } = await (await realm.admin('GET', '')).json() as { id: string };
    const added = await realm.admin('POST', '/components', {
      name: 'rotated', providerId: 'rsa-generated', providerType: 'org.keycloak.keys.KeyProvider', parentId: realmId,
      config: { priority: ['1000'], enabled: ['true'], active: ['true'], algorithm: ['RS256'] },
    });
    expect(added.status).to.equal(201);
    const newToken = await accessToken(await realm.passwordGrant('bob', 'bob'));
    expect(kidOf(newToken)).to.not.equal(oldKid);
    expect((await read(newToken)).status).to.equal(200);

    type Keys = { keys: { kid: string; providerId: string }[] };
    const { keys } = await (await realm.admin('GET', '/keys')).json() as Keys;
    const oldProvider = keys.find(({ kid }) => kid === oldKid)!.providerId;
    expect((await realm.admin('DELETE', `/components/${oldProvider}`)).status).to.equal(204);
    await eventually(async () => (await read(oldToken)).status === 401);
    expect((await read(newToken)).status).to.equal(200);
  });
});
