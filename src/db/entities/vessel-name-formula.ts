// A sighting's vessel name in one language, as SQL: the name for the language, else for its base language, else
// English, else the vessel's first name, as the API's list view picks it (src/resources/vessel-names.ts, pickName).
import { p } from '@mikro-orm/core';

/** The languages the API answers in (src/i18n/messages.ts); one computed property per language. */
const languages = ['en', 'de'] as const;

const key = `lower(replace("n"."language_key", '_', '-'))`;
const ranked = (language: string) => `${key} = '${language}' desc, split_part(${key}, '-', 1) = '${language}' desc`;

/** The order of a vessel's names `"n"` in which the first is the one shown in `language`. */
export const namesOrderFor = (language: string): string =>
  `${ranked(language)}, ${ranked('en')}, "n"."translation_id"`;

/** The SQL that picks the name of the vessel whose id is the column `vesselId`. */
export const vesselNameSql = (vesselId: string, language: string): string =>
  `(select "n"."text" from "vessel_name" as "n" where "n"."vessel_id" = ${vesselId} `
  + `order by ${namesOrderFor(language)} limit 1)`;

/** `vesselNameEn`, `vesselNameDe`: the property a sort by vessel name orders by in that language. */
export const vesselNameProperty = (language: string): string =>
  `vesselName${language[0]!.toUpperCase()}${language.slice(1)}`;

export const vesselNameFormulas = Object.fromEntries(languages.map((language) => [vesselNameProperty(language),
  p.string().formula((columns) => vesselNameSql(`${columns}."vessel_id"`, language)).lazy().hidden().nullable()]));
