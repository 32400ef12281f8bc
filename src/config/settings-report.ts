// `npm run config`: the effective settings, secrets redacted, one per line; exit 1 with the start's line on a bad one.
import { settingNames } from './config.ts';
import { checkedSettings } from './settings-gate.ts';

/** Settings whose whole value is a secret. */
const secrets = new Set(['METRICS_TOKEN', 'SIGHTING_SERVICE_SECRET', 'PGPASSWORD']);

/** A URL's password (in its user part or as a `password` parameter) replaced; everything else kept. */
function redactedUrl(text: string): string {
  if (!URL.canParse(text)) return text;
  const url = new URL(text);
  if (url.password) url.password = 'REDACTED';
  if (url.searchParams.has('password')) url.searchParams.set('password', 'REDACTED');
  return url.toString();
}

export function redacted(name: string, value: unknown): string {
  if (value === undefined) return '(unset)';
  if (secrets.has(name)) return 'REDACTED';
  if (Array.isArray(value)) return value.map((item) => redactedUrl(String(item))).join(',');
  return name.endsWith('_URL') ? redactedUrl(String(value)) : String(value);
}

const config = checkedSettings() as unknown as Record<string, unknown>;
const width = Math.max(...settingNames.map((name) => name.length));
for (const name of settingNames) {
  const origin = process.env[name] === undefined ? 'default' : 'set';
  process.stdout.write(`${name.padEnd(width)}  ${redacted(name, config[name])}  (${origin})\n`);
}
