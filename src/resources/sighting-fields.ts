// The sighting's fields that are not read and written as they are: dates, time zones and its vessel.
import { field, type Field } from '../crud/fields.ts';
import { rootColumn, rootField } from '../crud/root-alias.ts';
import { localDateTimeText } from '../db/local-date-time-text.ts';
import { normalizeLocalDateTime, normalizeTimeZone } from '../validation/formats.ts';
import { joinNames, nameColumn, namesColumn, rowVesselName } from './vessel-names.ts';

/** The schema's `local-date-time` format admitted the text; the contract answers it as `…:ss.SSS`. */
export function localDateTime(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : normalizeLocalDateTime(value) ?? null;
}

/** The schema's `time-zone` format admitted the text; blank is stored as null. */
export function timeZone(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : normalizeTimeZone(value) ?? null;
}

/** A date and time without a zone, stored normalized and answered as `…:ss.SSS`. */
export const dateField = (name: string): Field => field(name, { read: localDateTimeText,
  write: (value) => localDateTime(value as string | null | undefined) });

/** A time zone's IANA name, stored normalized (blank as null). */
export const timeZoneField = (name: string): Field => field(name,
  { write: (value) => timeZone(value as string | null | undefined) });

/**
 * The sighting's `vessel`: its vessel's id and name in the caller's language, and in a detail the vessel's version
 * too (a detail joins the vessel's row for it; a list joins only the names, by the id it holds). Written by its id:
 * saving a sighting never loads, creates or changes a vessel.
 */
export const vesselReference: Field = {
  name: 'vessel',
  views: ['list', 'detail'],
  rootFields: () => ['vessel_id'],
  // Both views show the name in the caller's language: with the request's locale the query picks it.
  joinedColumns: (view, locale) => [...view === 'list' ? [] : ['v.version as vessel_version'],
    locale ? nameColumn : namesColumn],
  join: (qb, view, locale) => joinNames(view === 'list' ? qb : qb.join(rootField('vessel'), 'v'),
    rootColumn('vessel_id'), locale),
  // Each view's object written out, members in the contract's order: a long list makes one per row, with no spread.
  read: (row, locale, view) => (view === 'list'
    ? { vesselId: Number(row.vessel_id), vesselName: rowVesselName(row, locale) }
    : { version: row.vessel_version, vesselId: Number(row.vessel_id), vesselName: rowVesselName(row, locale) }),
  write: (body) => ({ vessel: (body.vessel as { vesselId: number }).vesselId }),
};
