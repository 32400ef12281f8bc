// Formats the contract names beyond JSON Schema's own: real local date-times and time zones (contract B, Create).
import type { Format } from 'ajv';

const localDateTimeShape = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{3}))?)?$/;
const fixedOffset = /^[+-](0\d|1[0-4]):[0-5]\d$/;

/** `yyyy-MM-ddTHH:mm[:ss[.SSS]]` as `yyyy-MM-ddTHH:mm:ss.SSS`; undefined for any other text or an impossible date. */
export function normalizeLocalDateTime(text: string): string | undefined {
  const [, y, mo, d, h, mi, s = '00', ms = '000'] = localDateTimeShape.exec(text) ?? [];
  // Year 0000 is 1 BC in ISO 8601 but no year at all for PostgreSQL's timestamp: only years 0001..9999 are dates.
  if (!y || y === '0000') return undefined;
  const normalized = `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}`;
  // A Date rolls 02-30 over to 03-02 and 24:00 to the next day: a round trip that changes the text was impossible.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), Number(ms));
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 23) === normalized ? normalized : undefined;
}

// Building an Intl.DateTimeFormat costs tens of microseconds and a create checks its zone twice (validator, then
// the write): answers are kept, for at most `maxZones` distinct texts so odd input cannot grow the cache without bound.
const zones = new Map<string, string | undefined>();
const maxZones = 2000;

/** An IANA zone id (kept as sent, only its letter case corrected) or a fixed offset `±HH:MM`; undefined otherwise. */
export function normalizeTimeZone(text: string): string | undefined {
  if (zones.has(text)) return zones.get(text);
  const normalized = resolveTimeZone(text.trim());
  if (zones.size >= maxZones) zones.delete(zones.keys().next().value!);
  zones.set(text, normalized);
  return normalized;
}

function resolveTimeZone(zone: string): string | undefined {
  if (fixedOffset.test(zone)) return zone;
  try {
    // ICU "canonicalizes" to its own, often outdated, names (Asia/Kolkata -> Asia/Calcutta): keep the id the user chose.
    const resolved = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    return undefined;
  }
}

/** For the request validator (and the tests' response checks): the `format`s openapi.yaml uses. */
export const customFormats: Record<string, Format> = {
  'local-date-time': { type: 'string', validate: (text: string) => normalizeLocalDateTime(text) !== undefined },
  // Blank is allowed: it is stored as null.
  'time-zone': { type: 'string', validate: (text: string) => text.trim() === '' || normalizeTimeZone(text) !== undefined },
};
