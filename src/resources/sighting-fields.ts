// The sighting's fields as stored: normalized dates and time zones, and a reference to the vessel it links.
import type { EntityManager } from '@mikro-orm/core';
import { Vessel } from '../db/entities/vessel.entity.ts';
import { normalizeLocalDateTime, normalizeTimeZone } from '../validation/formats.ts';

/** The schema's `local-date-time` format admitted the text; the contract answers it as `…:ss.SSS`. */
export function localDateTime(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : normalizeLocalDateTime(value) ?? null;
}

/** The schema's `time-zone` format admitted the text; blank is stored as null. */
export function timeZone(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : normalizeTimeZone(value) ?? null;
}

/**
 * Links a vessel by id without loading it; saving a sighting never creates or changes one. Whether it exists is
 * the foreign key's to say when the row is written (the descriptor's `references`).
 */
export function vesselReference(em: EntityManager, vesselId: number): Vessel {
  return em.getReference(Vessel, vesselId);
}
