// A vessel's names: picking the one for a locale, and replacing them from a language map.
import { raw, type EntityManager, type RawQueryFragment } from '@mikro-orm/core';
import { Translation } from '../db/entities/translation.entity.ts';
import type { Vessel } from '../db/entities/vessel.entity.ts';
import { ValidationFailed } from '../errors/app-errors.ts';

/** `-` and `_` are equivalent when a key is matched (contract B, Views). */
export const normalizeLanguageKey = (key: string): string => key.toLowerCase().replace(/_/g, '-');

/** A vessel's names as a view query reads them: `[languageKey, text]` in the order they were added. */
export type Names = ReadonlyArray<readonly [string, string]>;

/** A column `vessel_names` with the names of the vessel whose id is the SQL expression `vesselId`. */
export function namesColumn(vesselId: string): RawQueryFragment {
  // A correlated subquery rather than a join: one row per record, so results stream and page by id unchanged.
  return raw(`(select json_agg(json_build_array("n"."language_key", "n"."text") order by "n"."translation_id") `
    + `from "vessel_name" as "n" where "n"."vessel_id" = ${vesselId}) as "vessel_names"`);
}

/** The text for the locale, then `en`, then the first key in order; null when there is none. */
export function localizedName(names: unknown, locale: string): string | null {
  const items = (names ?? []) as Names;
  const forLanguage = (language: string) =>
    items.find(([key]) => normalizeLanguageKey(key) === language)
    ?? items.find(([key]) => normalizeLanguageKey(key).split('-')[0] === language);
  return (forLanguage(locale) ?? forLanguage('en') ?? items[0])?.[1] ?? null;
}

export function languageMap(names: unknown): Record<string, string> {
  return Object.fromEntries((names ?? []) as Names);
}

const namesOf = (vessel: Vessel): Names => vessel.translations.getItems().map((t) => [t.languageKey, t.text] as const);

/** Replaces the names: changed texts are updated, new ones added, and ones left out deleted (orphan removal). */
export function replaceNames(em: EntityManager, vessel: Vessel, names: Record<string, string>): void {
  const seen = new Map<string, string>();
  for (const key of Object.keys(names)) {
    const normalized = normalizeLanguageKey(key);
    if (seen.has(normalized)) throw new ValidationFailed([{ field: `vesselName.${key}`, key: 'vessel.name.duplicateKey' }]);
    seen.set(normalized, key);
  }
  const before = JSON.stringify(namesOf(vessel));
  for (const translation of vessel.translations.getItems()) {
    if (!(translation.languageKey in names)) vessel.translations.remove(translation);
  }
  for (const [languageKey, text] of Object.entries(names)) {
    const existing = vessel.translations.getItems().find((t) => t.languageKey === languageKey);
    if (existing) existing.text = text;
    else vessel.translations.add(em.create(Translation, { vessel, languageKey, text }));
  }
  // The names are part of the vessel: changing them must change (and version-check) the vessel row.
  if (JSON.stringify(namesOf(vessel)) !== before) vessel.modifiedAt = new Date();
}
