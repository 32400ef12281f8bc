// Maps a `timestamp(3)` column to the wire's local date-time text, so no time zone ever shifts it.
import { Type, type Platform, type EntityProperty } from '@mikro-orm/core';
import { localDateTimeText } from './local-date-time-text.ts';

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
