// Reads the service's /metrics as a test would assert on it: one metric family's samples by their labels.

/**
 * Every sample of a metric family's series, by its label text: `{kind="list",target="replica"}` → value, `''` for none.
 */
export async function samples(url: string, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return new Map([...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))].map((m) =>
    [m[1] ?? '', Number(m[2])]));
}

/** The primary pool's connections by state (`db_pool_connections`): in use, idle, and requests waiting for one. */
export async function poolConnections(url: string): Promise<{ used: number; idle: number; waiting: number }> {
  const all = await samples(url, 'db_pool_connections');
  const count = (state: string) => all.get(`{pool="primary",state="${state}"}`) ?? 0;
  return { used: count('used'), idle: count('idle'), waiting: count('waiting') };
}
