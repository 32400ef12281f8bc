// Access tokens of the development users, fetched with the password grant (client sighting-cli) and reused until
// shortly before they expire.
export type User = 'alice' | 'bob' | 'viewer' | 'admin';

/**
 * What a stream's token has left at least: four of a token's five minutes (a cached one is reused for its first
 * minute). With a minute, a stream on a loaded machine was cut by its token's end before its test had read it.
 */
export const streamTokenLifeMs = 240_000;

interface Cached { token: Promise<string>; expiresAt: number }

const cache = new Map<string, Cached>();

/**
 * A token of `user` with `minimumLifeMs` left at least. Access tokens live 5 minutes and a whole run takes longer: a
 * request's is fetched again a minute before it ends. A change-feed stream ends when its token does: one that must
 * stay open through a long test asks for more (`streamTokenLifeMs`).
 */
export function tokenFor(realm: string, user: User, minimumLifeMs = 60_000): Promise<string> {
  const key = `${realm} ${user}`;
  const cached = cache.get(key);
  if (cached && cached.expiresAt - Date.now() > minimumLifeMs) return cached.token;
  const token = fetchToken(realm, user);
  const entry: Cached = { token: token.then(({ accessToken }) => accessToken), expiresAt: Infinity };
  token.then(({ expiresIn }) => { entry.expiresAt = Date.now() + expiresIn * 1000; }, () => cache.delete(key));
  cache.set(key, entry);
  return entry.token;
}

/**
 * Forgets the tokens of every realm at `origin` (a service's, as `http://127.0.0.1:41234`): the embedded provider's
 * key ends with its service, and a service started later may be given the same port (`listen(0)` here hands out a
 * port again within a few dozen binds), where the cached tokens would be refused as signed by an unknown key.
 */
export function forgetTokensOf(origin: string): void {
  for (const key of cache.keys()) if (key.startsWith(`${origin}/`)) cache.delete(key);
}

async function fetchToken(realm: string, user: User): Promise<{ accessToken: string; expiresIn: number }> {
  const response = await fetch(`${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username: user, password: user }),
  });
  const body = await response.json() as { access_token?: string; expires_in?: number };
  if (!response.ok || !body.access_token)
    throw new Error(`no token for ${user}: ${response.status} ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, expiresIn: body.expires_in ?? 300 };
}
