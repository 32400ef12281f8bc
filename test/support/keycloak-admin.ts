// Keycloak's admin REST API, as the tests that change a realm need it: a copy of the sighting realm, its keys, locks.
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';

const realmFile = new URL('../../keycloak/sighting-realm.json', import.meta.url);

export interface RealmCopy {
  name: string;
  /** `${keycloakUrl}/realms/${name}`. */
  issuer: string;
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** The password grant of `sighting-cli`, as is. */
  passwordGrant(username: string, password: string): Promise<Response>;
  remove(): Promise<void>;
}

async function adminToken(keycloakUrl: string): Promise<string> {
  const response = await fetch(`${keycloakUrl}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' }),
  });
  if (!response.ok) throw new Error(`no admin token: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * A copy of keycloak/sighting-realm.json under a name of its own: a test that locks a user or deletes a key does it
 * there, so the tokens other tests hold of the sighting realm stay good.
 */
export async function copyOfSightingRealm(keycloakUrl: string): Promise<RealmCopy> {
  const name = `sighting-${randomUUID().slice(0, 8)}`;
  const realm = { ...JSON.parse(await readFile(realmFile, 'utf8')) as object, realm: name, id: name };
  // The admin token lives a minute; each call fetches one (a test makes a few calls).
  const admin = async (method: string, path: string, body?: unknown) => fetch(`${keycloakUrl}/admin/realms${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${await adminToken(keycloakUrl)}`,
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const created = await admin('POST', '', realm);
  if (created.status !== 201) {
    throw new Error(`the realm copy was not created: ${created.status} ${await created.text()}`);
  }
  const issuer = `${keycloakUrl}/realms/${name}`;
  return {
    name,
    issuer,
    admin: (method, path, body) => admin(method, `/${name}${path}`, body),
    passwordGrant: (username, password) => fetch(`${issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username, password }),
    }),
    remove: async () => { await admin('DELETE', `/${name}`); },
  };
}
