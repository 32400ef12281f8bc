// The page's language: the API's bundles (locales/), chosen like the API does (i18next cookie, then the browser's
// languages).
import en from '../../locales/en.json';
import de from '../../locales/de.json';

const bundles = { en, de } as const;
export type Locale = keyof typeof bundles;
export const locales = Object.keys(bundles) as Locale[];

function initialLocale(): Locale {
  const cookie = /(?:^|;\s*)i18next=([^;]*)/.exec(document.cookie)?.[1];
  for (const tag of [...(cookie ? [decodeURIComponent(cookie)] : []), ...navigator.languages]) {
    const language = tag.toLowerCase().split(/[-_]/)[0];
    const match = locales.find((locale) => locale === language);
    if (match) return match;
  }
  return 'en';
}

let current: Locale = initialLocale();

export const locale = (): Locale => current;

/**
 * The same cookie the API reads (docs/behaviour.md#views), so its messages and vessel names follow the page's choice.
 */
export function setLocale(next: Locale): void {
  current = next;
  document.cookie = `i18next=${next}; path=/; max-age=31536000; SameSite=Lax`;
  document.documentElement.lang = next;
}

/** A message by key with `{name}` parameters replaced; a key with no entry renders as `{key}`, as the API's do. */
export function t(key: string, params: Record<string, string | number | undefined> = {}): string {
  const text = (bundles[current] as Record<string, string>)[key] ?? (bundles.en as Record<string, string>)[key];
  if (text === undefined) return `{${key}}`;
  return text.replace(/\{(\w+)\}/g,
    (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}
