// Numbers and dates as the page's language writes them ("2,001" in English, "2.001" in German).
import { locale } from './i18n.ts';

export const number = (value: number): string => new Intl.NumberFormat(locale()).format(value);

/**
 * `yyyy-MM-ddTHH:mm:ss.SSS` as the person's locale writes a date and time; a local date-time, so no zone conversion.
 */
export function localDateTime(date: string | null | undefined, empty: string): string {
  if (!date) return empty;
  const [y, mo, d, hh, mm, ss] = date.split(/[-T:.]/).map(Number);
  return new Date(y!, mo! - 1, d!, hh!, mm!, ss ?? 0).toLocaleString(locale(),
    { dateStyle: 'medium', timeStyle: 'short' });
}
