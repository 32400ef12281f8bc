// Formats the contract names beyond JSON Schema's own: real local date-times and time zones (docs/behaviour.md#create).
import type { Format } from 'ajv';

const localDateTimeShape = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{3}))?)?$/;
const fixedOffset = /^[+-](0\d|1[0-4]):[0-5]\d$/;

/** `yyyy-MM-ddTHH:mm[:ss[.SSS]]` as `yyyy-MM-ddTHH:mm:ss.SSS`; undefined for any other text or an impossible date. */
export function normalizeLocalDateTime(text: string): string | undefined {
  const match = localDateTimeShape.exec(text);
  if (!match) return undefined;
  // Year 0000 is 1 BC in ISO 8601 but no year at all for PostgreSQL's timestamp: only years 0001..9999 are dates.
  // Checked by the calendar's rules, not by a Date's round trip: every create and replacement checks its date twice.
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const possible = year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month)
    && Number(match[4]) <= 23 && Number(match[5]) <= 59 && Number(match[6] ?? 0) <= 59;
  if (!possible) return undefined;
  // A text with its seconds and milliseconds is its own normal form: no new string.
  if (match[7] !== undefined) return text;
  return `${text.slice(0, 16)}:${match[6] ?? '00'}.000`;
}

const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number): number =>
  (month === 2 ? (isLeap(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);

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
    // ICU "canonicalizes" to its own, often outdated, names (Asia/Kolkata -> Asia/Calcutta): keep the id the user
    // chose.
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
  'time-zone': { type: 'string', validate: (text: string) => text.trim() === ''
    || normalizeTimeZone(text) !== undefined },
};
