// Access tokens of the development users, fetched once per user with the password grant (client sighting-cli).
export type User = 'alice' | 'bob' | 'viewer' | 'admin';

const cache = new Map<string, Promise<string>>();

export function tokenFor(realm: string, user: User): Promise<string> {
  const key = `${realm} ${user}`;
  let token = cache.get(key);
  if (!token) {
    token = fetchToken(realm, user);
    cache.set(key, token);
    token.catch(() => cache.delete(key));
  }
  return token;
}

async function fetchToken(realm: string, user: User): Promise<string> {
  const response = await fetch(`${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username: user, password: user }),
  });
  const body = await response.json() as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`no token for ${user}: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
