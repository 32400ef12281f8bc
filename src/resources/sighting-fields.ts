// The sighting's fields that are not read and written as they are: dates, time zones and its vessel.
import { field, rowColumn, type Field } from '../crud/fields.ts';
import { rootColumn, rootField } from '../crud/root-alias.ts';
import { localDateTimeText } from '../db/local-date-time-text.ts';
import type { RecordEndCell } from '../http/csv-record-ends.ts';
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

const [space, point, dash, zero, nine] = [0x20, 0x2e, 0x2d, 0x30, 0x39];

/**
 * A `timestamp(3)` where it ends an export's record: its own text (DateStyle ISO, which each session sets) a tenth
 * of a millisecond later always has four digits after the second's point, `2026-11-22 21:30:00.0001`; the service
 * writes the `T` and leaves out the fourth digit. PostgreSQL's text costs it a twentieth of `to_char`'s.
 */
export const dateAtRecordEnd = (column: string): RecordEndCell => ({
  sql: `(${column} + interval '0.0001 s')`,
  width: 24,
  // The cell is PostgreSQL's text of a date or nothing (null: the row ends with the comma before it). A digit last and
  // the separators where they stand tell the one from the other; a regular expression for each row cost twice this.
  finish: (cell) => {
    const last = cell.charCodeAt(23);
    return last >= zero && last <= nine && cell.charCodeAt(19) === point && cell.charCodeAt(10) === space
      && cell.charCodeAt(4) === dash ? `${cell.slice(0, 10)}T${cell.slice(11, 23)}` : undefined;
  },
});

/** A date and time without a zone, stored normalized and answered as `…:ss.SSS`. */
export const dateField = (name: string): Field => field(name, { read: localDateTimeText,
  sqlText: (column) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS')`, recordEnd: dateAtRecordEnd,
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
  write: (body, data) => {
    data.vessel = (body.vessel as { vesselId: number }).vesselId;
  },
  sqlCells: (view) => ({ ...view === 'detail' && { 'vessel.version': rowColumn('vessel_version') },
    'vessel.vesselId': rowColumn('vessel_id'), 'vessel.vesselName': rowColumn('vessel_name') }),
};
