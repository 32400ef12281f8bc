// Reads the service's /metrics as a test would assert on it: one metric family's samples by their labels.

/** Every sample of a metric family's series, by its label text: `{kind="list",target="replica"}` → value, `''` for none. */
export async function samples(url: string, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return new Map([...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))].map((m) => [m[1] ?? '', Number(m[2])]));
}
