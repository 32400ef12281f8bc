// A three-way merge of a sighting's fields: the version the form loaded (base), the person's form (mine) and the
// version saved meanwhile (theirs). What only one side changed is taken from it; what both changed differently is
// a conflict the person decides.
import type { Schemas } from './api.ts';
import type { SightingFields } from './views/sighting-form.ts';

export type FieldName = 'vessel' | 'sightingDate' | 'sightingTimezone' | 'sightingMemo';
export const fieldNames: FieldName[] = ['vessel', 'sightingDate', 'sightingTimezone', 'sightingMemo'];

/** The fields as comparable values: the vessel by id, a date-time to the second (the form drops `.000`). */
export type Values = Record<FieldName, string | number | null>;

export function valuesOf(record: Partial<SightingFields> | Schemas['SightingDetail']): Values {
  const date = record.sightingDate ?? null;
  return {
    vessel: record.vessel?.vesselId ?? null,
    sightingDate: date === null || date === '' ? null : `${date}:00`.slice(0, 19),
    sightingTimezone: record.sightingTimezone || null,
    sightingMemo: record.sightingMemo ?? '',
  };
}

export interface Merge {
  /** The merged values, with the person's value where both changed (until they choose). */
  merged: Values;
  /** Fields only the other side changed: kept as they saved them. */
  theirs: FieldName[];
  /** Fields only the person changed: applied on top of the other version. */
  mine: FieldName[];
  /** Fields both changed to different values. */
  conflicts: FieldName[];
}

export function merge(base: Values, mine: Values, theirs: Values): Merge {
  const result: Merge = { merged: { ...theirs }, theirs: [], mine: [], conflicts: [] };
  for (const name of fieldNames) {
    const iChanged = mine[name] !== base[name];
    const theyChanged = theirs[name] !== base[name];
    if (theyChanged && !iChanged) result.theirs.push(name);
    if (iChanged) result.merged[name] = mine[name];
    if (iChanged && !theyChanged) result.mine.push(name);
    if (iChanged && theyChanged && mine[name] !== theirs[name]) result.conflicts.push(name);
  }
  return result;
}

/** The JSON merge patch (RFC 7396) from `base` to `next`: only the fields that differ, `null` to clear one. */
export function mergePatch(base: Values, next: Values): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const name of fieldNames) {
    if (next[name] === base[name]) continue;
    patch[name] = name === 'vessel' ? { vesselId: next[name] } : next[name];
  }
  return patch;
}
