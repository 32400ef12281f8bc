// Maps a `timestamp(3)` column to the wire's local date-time text, so no time zone ever shifts it.
import { Type, type Platform, type EntityProperty } from '@mikro-orm/core';

/** A `timestamp(3)` as read from the database (text, or a Date) as the wire's `yyyy-MM-ddTHH:mm:ss.SSS`; null stays null. */
export function localDateTimeText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 23);
  const [date, time = '00:00:00'] = String(value).split(/[ T]/);
  const [hms, fraction = ''] = time!.split('.');
  return `${date}T${hms}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}

export class LocalDateTimeType extends Type<string | null, string | null> {
  override getColumnType(_prop: EntityProperty, _platform: Platform): string {
    return 'timestamp(3)';
  }

  override convertToDatabaseValue(value: string | null): string | null {
    return value;
  }

  // PostgreSQL renders `2026-11-22 21:30:00.5`; the contract wants `2026-11-22T21:30:00.500`.
  override convertToJSValue(value: string | Date | null): string | null {
    return localDateTimeText(value);
  }

  override compareAsType(): string {
    return 'string';
  }
}
