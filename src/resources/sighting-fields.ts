// The sighting's fields as stored: normalized dates and time zones, and the vessel it links, which must exist.
import type { EntityManager } from '@mikro-orm/core';
import { Vessel } from '../db/entities/index.ts';
import { ValidationFailed } from '../errors/app-errors.ts';
import { normalizeLocalDateTime, normalizeTimeZone } from '../validation/formats.ts';

/** The schema's `local-date-time` format admitted the text; the contract answers it as `…:ss.SSS`. */
export function localDateTime(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : normalizeLocalDateTime(value) ?? null;
}

/** The schema's `time-zone` format admitted the text; blank is stored as null. */
export function timeZone(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : normalizeTimeZone(value) ?? null;
}

/** Links an existing vessel; saving a sighting never creates or changes one. */
export async function existingVessel(em: EntityManager, vesselId: number): Promise<Vessel> {
  const vessel = await em.findOne(Vessel, { vesselId }, { populate: ['translations'] });
  if (!vessel) throw new ValidationFailed([{ field: 'vessel', key: 'sighting.vessel.notFound' }]);
  return vessel;
}
