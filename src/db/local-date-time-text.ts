// The wire's local date-time text of a stored `timestamp(3)`: no time zone ever shifts it.
/**
 * A `timestamp(3)` as read from the database (text, or a Date) as the wire's `yyyy-MM-ddTHH:mm:ss.SSS`; null stays
 * null.
 */
export function localDateTimeText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 23);
  const text = String(value);
  // PostgreSQL's `2026-11-22 21:30:00` or `…:00.5` (with a `T` in a history entry's JSON), read by position: a long
  // list converts one per row. Any other shape takes the general way below.
  if (text.length <= 23 && (text[10] === ' ' || text[10] === 'T') && (text.length === 19 || text[19] === '.')) {
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${text.slice(20).padEnd(3, '0')}`;
  }
  const [date, time = '00:00:00'] = text.split(/[ T]/);
  const [hms, fraction = ''] = time!.split('.');
  return `${date}T${hms}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}
