// A token of a realm user's, by the password grant of the public `sighting-cli` client (the realm's test users'
// passwords are their names).
export async function passwordToken(realmUrl: string, user: string): Promise<string> {
  const response = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username: user, password: user }),
  });
  if (!response.ok) throw new Error(`${realmUrl}: no token for ${user} (${response.status})`);
  return ((await response.json()) as { access_token: string }).access_token;
}

const cached = new Map<string, { token: string; at: number }>();

/** A request's headers with a user's token (fetched again after a minute, well inside its lifetime) and JSON. */
export async function requestHeaders(realmUrl: string, user = 'alice'): Promise<Record<string, string>> {
  let entry = cached.get(`${realmUrl} ${user}`);
  if (!entry || Date.now() - entry.at > 60_000)
    cached.set(`${realmUrl} ${user}`, entry = { token: await passwordToken(realmUrl, user), at: Date.now() });
  return { Authorization: `Bearer ${entry.token}`, 'Content-Type': 'application/json' };
}
