// The sighting's fields as stored: normalized dates and time zones.
import { normalizeLocalDateTime, normalizeTimeZone } from '../validation/formats.ts';

/** The schema's `local-date-time` format admitted the text; the contract answers it as `…:ss.SSS`. */
export function localDateTime(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : normalizeLocalDateTime(value) ?? null;
}

/** The schema's `time-zone` format admitted the text; blank is stored as null. */
export function timeZone(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : normalizeTimeZone(value) ?? null;
}
