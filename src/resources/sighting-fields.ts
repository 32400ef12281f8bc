// The sighting's own field rules beyond the schema: real dates, real time zones, existing vessels.
import type { EntityManager } from '@mikro-orm/core';
import { Vessel } from '../db/entities/index.ts';
import { ValidationFailed } from '../errors/app-errors.ts';

/** `yyyy-MM-ddTHH:mm[:ss[.SSS]]` (the schema checked the shape) to `yyyy-MM-ddTHH:mm:ss.SSS`; impossible dates are 400. */
export function localDateTime(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const [, y, mo, d, h, mi, s = '00', ms = '000'] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{3}))?)?$/.exec(value) ?? [];
  const normalized = `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}`;
  // A Date rolls 02-30 over to 03-02 and 24:00 to the next day: a round trip that changes the text was impossible.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), Number(ms));
  if (!y || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 23) !== normalized) {
    throw new ValidationFailed([{ field: 'sightingDate', key: 'sighting.date.invalid' }]);
  }
  return normalized;
}

/** Blank is null; otherwise an IANA zone id (kept as sent, only its letter case corrected) or a fixed offset `±HH:MM`. */
export function timeZone(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const zone = value.trim();
  if (/^[+-](0\d|1[0-4]):[0-5]\d$/.test(zone)) return zone;
  try {
    // ICU "canonicalizes" to its own, often outdated, names (Asia/Kolkata -> Asia/Calcutta): keep the id the user chose.
    const resolved = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    throw new ValidationFailed([{ field: 'sightingTimezone', key: 'sighting.timezone.invalid' }]);
  }
}

/** Links an existing vessel; saving a sighting never creates or changes one. */
export async function existingVessel(em: EntityManager, vesselId: number): Promise<Vessel> {
  const vessel = await em.findOne(Vessel, { vesselId }, { populate: ['translations'] });
  if (!vessel) throw new ValidationFailed([{ field: 'vessel', key: 'sighting.vessel.notFound' }]);
  return vessel;
}
