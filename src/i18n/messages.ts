// Renders message keys in a locale from the bundles in locales/; a key with no entry renders as `{key}`.
import i18next from 'i18next';
import en from '../../locales/en.json' with { type: 'json' };
import de from '../../locales/de.json' with { type: 'json' };

export const supportedLocales = ['en', 'de'] as const;
export type Locale = (typeof supportedLocales)[number];

const messages = i18next.createInstance();
await messages.init({
  resources: { en: { translation: en }, de: { translation: de } },
  lng: 'en',
  fallbackLng: 'en',
  // `de-AT` is German: what the request's locale is matched against (src/i18n/request-locale.ts).
  supportedLngs: [...supportedLocales],
  nonExplicitSupportedLngs: true,
  // Keys are flat ("sighting.memo.minLength"), parameters single-braced ("{min}"), as the contract writes them.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
  parseMissingKeyHandler: (key: string) => `{${key}}`,
  showSupportNotice: false,
} as Parameters<typeof messages.init>[0]);

/** The instance's services, for i18next's HTTP language detector. */
export const messageServices = messages.services;

/** A key of the English bundle, the one every other bundle follows: tsc refuses a key that has no text. */
export type MessageKey = keyof typeof en;

/**
 * A key `openapi.yaml`'s `x-message-keys` names, known only once the contract is read, so no type can check it
 * (test/architecture/message-keys.test.ts checks that each has a text). Only the contract's type
 * (src/contract/document.ts) holds one: a key spelled out in code must be a `MessageKey`.
 */
export type ContractMessageKey = string & { readonly namedBy: 'openapi.yaml' };

export function message(locale: Locale, key: MessageKey | ContractMessageKey,
  params: Record<string, unknown> = {}): string {
  return messages.t(key, { ...params, lng: locale });
}
