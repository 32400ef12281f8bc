// Access tokens of the development users, fetched once per user with the password grant (client sighting-cli).
export type User = 'alice' | 'bob' | 'viewer' | 'admin';

// Tokens live 5 minutes (the realm's accessTokenLifespan) and a full run takes longer: a cached one is used while it
// has at least 30 s left, then fetched again.
const cache = new Map<string, { token: Promise<string>; fetchedAt: number }>();
const reuseForMs = (300 - 30) * 1000;

export function tokenFor(realm: string, user: User): Promise<string> {
  const key = `${realm} ${user}`;
  const cached = cache.get(key);
  if (cached && Date.now() - cached.fetchedAt < reuseForMs) return cached.token;
  const token = fetchToken(realm, user);
  cache.set(key, { token, fetchedAt: Date.now() });
  token.catch(() => cache.delete(key));
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
