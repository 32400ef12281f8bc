// A vessel's names: picking the one for a locale, and replacing them from a language map.
import { raw, type EntityManager } from '@mikro-orm/core';
import type { ViewQuery } from '../crud/resource-descriptor.ts';
import { rowColumn, type Field } from '../crud/fields.ts';
import { rootColumn } from '../crud/root-alias.ts';
import { Translation } from '../db/entities/translation.entity.ts';
import type { Vessel } from '../db/entities/vessel.entity.ts';
import { namesOrderFor } from '../db/entities/vessel-name-formula.ts';
import type { Locale } from '../i18n/messages.ts';
import type { ViewRow } from '../crud/resource-descriptor.ts';
import { ValidationFailed } from '../errors/app-errors.ts';

/** `-` and `_` are equivalent when a key is matched (docs/behaviour.md#views). */
export const normalizeLanguageKey = (key: string): string => key.toLowerCase().replace(/_/g, '-');

/** A vessel's names as a view query reads them: `[languageKey, text]` in the order they were added. */
export type Names = ReadonlyArray<readonly [string, string]>;

/** The view column `vessel_names` that `joinNames` adds. */
export const namesColumn = 'names.vessel_names';

/** The view column `vessel_name` that `joinNames` adds when given a locale: the one name shown in it. */
export const nameColumn = 'names.vessel_name';

/**
 * Joins the names of the vessel whose id is the SQL expression `vesselId`: all of them as `namesColumn`, or with a
 * `locale` only the one `localizedName` would pick for it, as `nameColumn`.
 */
export function joinNames(qb: ViewQuery, vesselId: string, locale?: Locale): ViewQuery {
  if (locale !== undefined) return joinName(qb, vesselId, locale);
  // A lateral join of one aggregate row: one row per record still, so results stream and page unchanged; and unlike
  // a subquery in the select list, PostgreSQL memoizes it per distinct vessel, so a list of a million sightings of
  // two vessels aggregates names twice, not a million times (and its estimate stays below the JIT's threshold).
  // `on true`: an aggregate without GROUP BY is always one row (null when the vessel has no names).
  // As JSON text, which `pg` hands over unparsed: a long list parses and localizes each distinct text once (below).
  return qb.leftJoinLateral(raw(
    `select json_agg(json_build_array("n"."language_key", "n"."text") order by "n"."translation_id")::text `
    + `as "vessel_names" from "vessel_name" as "n" where "n"."vessel_id" = ${vesselId}`), 'names',
      { [raw('true')]: [] });
}

/**
 * The name shown in `locale`, picked by the database in the order `pickName` follows
 * (src/db/entities/vessel-name-formula.ts): a long list's rows arrive holding the text itself, with no language map to
 * decode, parse and pick from per row.
 * Lateral for the same reason as above (memoized per distinct vessel); null when the vessel has no names.
 */
function joinName(qb: ViewQuery, vesselId: string, locale: Locale): ViewQuery {
  return qb.leftJoinLateral(raw(
    `select "n"."text" as "vessel_name" from "vessel_name" as "n" where "n"."vessel_id" = ${vesselId} `
    + `order by ${namesOrderFor(locale)} limit 1`), 'names', { [raw('true')]: [] });
}

/** The vessel's name in `locale` from a view row: picked by the query (`nameColumn`), or from its language map. */
export function rowVesselName(row: ViewRow, locale: Locale): string | null {
  const picked = row.vessel_name as string | null | undefined;
  return picked !== undefined ? picked : localizedName(row.vessel_names, locale);
}

// Per distinct names text: a list of a million sightings of a few vessels parses and localizes a few texts. Bounded
// (a text of 50 long names is some 15 KiB) and emptied when full: a list over very many vessels costs a parse per
// row, never unbounded memory. One map per supported locale.
const bound = 1000;
const parsedNames = new Map<string, Names>();
const localizedNames = new Map<string, Map<string, string | null>>();

/**
 * A view row's `vessel_names`: the JSON text of the view query, or the array itself (history entries written before).
 */
function viewNames(value: unknown): Names {
  if (typeof value !== 'string') return (value ?? []) as Names;
  let names = parsedNames.get(value);
  if (names === undefined) {
    if (parsedNames.size >= bound) parsedNames.clear();
    names = JSON.parse(value) as Names;
    parsedNames.set(value, names);
  }
  return names;
}

/** The text for the locale, then `en`, then the first key in order; null when there is none. */
export function localizedName(value: unknown, locale: string): string | null {
  if (typeof value !== 'string') return pickName(viewNames(value), locale);
  let forLocale = localizedNames.get(locale);
  if (!forLocale) localizedNames.set(locale, forLocale = new Map());
  let name = forLocale.get(value);
  if (name === undefined) {
    if (forLocale.size >= bound) forLocale.clear();
    name = pickName(viewNames(value), locale);
    forLocale.set(value, name);
  }
  return name;
}

function pickName(items: Names, locale: string): string | null {
  const forLanguage = (language: string) =>
    items.find(([key]) => normalizeLanguageKey(key) === language)
    ?? items.find(([key]) => normalizeLanguageKey(key).split('-')[0] === language);
  return (forLanguage(locale) ?? forLanguage('en') ?? items[0])?.[1] ?? null;
}

export function languageMap(value: unknown): Record<string, string> {
  return Object.fromEntries(viewNames(value));
}

/**
 * The vessel's `vesselName`: not a column of its row but its names, joined by the vessel's id; a list shows the one
 * for the caller's language, a detail the whole language map. Written by the descriptor's `writeRelated`.
 */
export const vesselNameField: Field = {
  name: 'vesselName',
  views: ['list', 'detail'],
  rootFields: () => [],
  // A list shows one name: with the request's locale the query picks it; a detail reads the whole map.
  joinedColumns: (view, locale) => [view === 'list' && locale ? nameColumn : namesColumn],
  join: (qb, view, locale) => joinNames(qb, rootColumn('vessel_id'), view === 'list' ? locale : undefined),
  read: (row, locale, view) => (view === 'list' ? rowVesselName(row, locale) : languageMap(row.vessel_names)),
  // A detail's map is a column per language, which the service writes itself.
  sqlCells: (view) => (view === 'list' ? { vesselName: rowColumn('vessel_name') } : undefined),
};

const entityNames = (vessel: Vessel): Names =>
  vessel.translations.getItems().map((t) => [t.languageKey, t.text] as const);

/** Replaces the names: changed texts are updated, new ones added, and ones left out deleted (orphan removal). */
export function replaceNames(em: EntityManager, vessel: Vessel, names: Record<string, string>): void {
  const seen = new Map<string, string>();
  for (const key of Object.keys(names)) {
    const normalized = normalizeLanguageKey(key);
    if (seen.has(normalized)) throw new ValidationFailed([{ field: `vesselName.${key}`,
      key: 'vessel.name.duplicateKey' }]);
    seen.set(normalized, key);
  }
  const before = JSON.stringify(entityNames(vessel));
  for (const translation of vessel.translations.getItems()) {
    // Own keys only: `in` would keep a name whose key is an Object.prototype member (`constructor`, `toString`).
    if (!Object.hasOwn(names, translation.languageKey)) vessel.translations.remove(translation);
  }
  for (const [languageKey, text] of Object.entries(names)) {
    const existing = vessel.translations.getItems().find((t) => t.languageKey === languageKey);
    if (existing) existing.text = text;
    else vessel.translations.add(em.create(Translation, { vessel, languageKey, text }));
  }
  // The names are part of the vessel: changing them must change (and version-check) the vessel row.
  if (JSON.stringify(entityNames(vessel)) !== before) vessel.modifiedAt = new Date();
}

/** Every language key some vessel has a text in, in the order of the keys: a CSV's columns `vesselName.<key>`. */
export async function languageKeys(em: EntityManager): Promise<string[]> {
  const rows = await em.getConnection('read').execute(
    'select distinct "language_key" from "vessel_name" order by "language_key"', [], 'all') as
    Array<{ language_key: string }>;
  return rows.map((row) => row.language_key);
}
