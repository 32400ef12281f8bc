// Access tokens of the development users, fetched with the password grant (client sighting-cli) and reused until near expiry.
export type User = 'alice' | 'bob' | 'viewer' | 'admin';

// Tokens live 5 minutes (the realm's accessTokenLifespan) and a whole run takes longer: renew a minute early.
const renewBeforeMs = 60_000;
const cache = new Map<string, { token: Promise<string>; expiresAt: number }>();

export function tokenFor(realm: string, user: User): Promise<string> {
  const key = `${realm} ${user}`;
  const cached = cache.get(key);
  if (cached && Date.now() < cached.expiresAt - renewBeforeMs) return cached.token;
  const entry = { token: fetchToken(realm, user), expiresAt: Infinity };
  cache.set(key, entry);
  entry.token.then((token) => { entry.expiresAt = expiryOf(token); }, () => cache.delete(key));
  return entry.token;
}

function expiryOf(token: string): number {
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp?: number };
  return typeof exp === 'number' ? exp * 1000 : Infinity;
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
