// A vessel's names: picking the one for a locale, and replacing them from a language map.
import type { Collection, EntityManager } from '@mikro-orm/core';
import { Translation } from '../db/entities/index.ts';
import type { Vessel } from '../db/entities/index.ts';
import { ValidationFailed } from '../errors/app-errors.ts';

/** `-` and `_` are equivalent when a key is matched (contract B, Views). */
export const normalizeLanguageKey = (key: string): string => key.toLowerCase().replace(/_/g, '-');

/** The text for the locale, then `en`, then the first key in order; null when there is none. */
export function localizedName(translations: Collection<Translation>, locale: string): string | null {
  const items = translations.getItems();
  const forLanguage = (language: string) =>
    items.find((t) => normalizeLanguageKey(t.languageKey) === language)
    ?? items.find((t) => normalizeLanguageKey(t.languageKey).split('-')[0] === language);
  return (forLanguage(locale) ?? forLanguage('en') ?? items[0])?.text ?? null;
}

export function languageMap(translations: Collection<Translation>): Record<string, string> {
  return Object.fromEntries(translations.getItems().map((t) => [t.languageKey, t.text]));
}

/** Replaces the names: changed texts are updated, new ones added, and ones left out deleted (orphan removal). */
export function replaceNames(em: EntityManager, vessel: Vessel, names: Record<string, string>): void {
  const seen = new Map<string, string>();
  for (const key of Object.keys(names)) {
    const normalized = normalizeLanguageKey(key);
    if (seen.has(normalized)) throw new ValidationFailed([{ field: `vesselName.${key}`, key: 'vessel.name.duplicateKey' }]);
    seen.set(normalized, key);
  }
  const before = JSON.stringify(languageMap(vessel.translations));
  for (const translation of vessel.translations.getItems()) {
    if (!(translation.languageKey in names)) vessel.translations.remove(translation);
  }
  for (const [languageKey, text] of Object.entries(names)) {
    const existing = vessel.translations.getItems().find((t) => t.languageKey === languageKey);
    if (existing) existing.text = text;
    else vessel.translations.add(em.create(Translation, { vessel, languageKey, text }));
  }
  // The names are part of the vessel: changing them must change (and version-check) the vessel row.
  if (JSON.stringify(languageMap(vessel.translations)) !== before) vessel.modifiedAt = new Date();
}
