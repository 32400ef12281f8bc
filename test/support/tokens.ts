// Access tokens of the development users, fetched with the password grant (client sighting-cli) and reused while fresh.
export type User = 'alice' | 'bob' | 'viewer' | 'admin';

// Access tokens live 5 minutes; a slow run on a busy machine outlives one, so a token is reused only while it has
// a minute left.
const margin = 60;
const cache = new Map<string, Promise<{ token: string; expires: number }>>();

export async function tokenFor(realm: string, user: User): Promise<string> {
  const key = `${realm} ${user}`;
  const entry = cache.get(key);
  if (entry) {
    const cached = await entry.catch(() => undefined);
    if (cached && cached.expires - margin > Date.now() / 1000) return cached.token;
    // Another caller may have started a fresh one meanwhile.
    if (cache.get(key) !== entry) return tokenFor(realm, user);
  }
  const fresh = fetchToken(realm, user);
  cache.set(key, fresh);
  fresh.catch(() => cache.delete(key));
  return (await fresh).token;
}

async function fetchToken(realm: string, user: User): Promise<{ token: string; expires: number }> {
  const response = await fetch(`${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username: user, password: user }),
  });
  const body = await response.json() as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`no token for ${user}: ${response.status} ${JSON.stringify(body)}`);
  const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1] ?? '', 'base64url').toString()) as { exp?: number };
  return { token: body.access_token, expires: claims.exp ?? 0 };
}
