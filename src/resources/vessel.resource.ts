// The vessel collection as data for the generic CRUD machinery; its names are a language map.
import type { FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { matching } from '../crud/read/query-by-example.ts';
import { fromFields, idField, versionField } from '../crud/fields.ts';
import { Vessel } from '../db/entities/vessel.entity.ts';
import { vesselObservers } from './vessel-observers.ts';
import { replaceNames, normalizeLanguageKey, vesselNameField, languageKeys } from './vessel-names.ts';

export default {
  name: 'vessel',
  entity: Vessel,
  idProperty: 'vesselId',
  populate: ['translations'],
  access: { read: 'reader', create: 'admin', change: 'admin' },
  // The vessel's row holds nothing but its id and version: a vessel is its names, written beside the row.
  ...fromFields([versionField(), idField('vesselId'), vesselNameField]),
  writeRelated: (vessel, body, em) => replaceNames(em, vessel, body.vesselName as Record<string, string>),
  relatedRows: (body) => ({ relation: 'translations', rows: Object.entries(body.vesselName as Record<string, string>)
    .map(([languageKey, text]) => ({ languageKey, text })) }),
  mapKeys: async (em) => ({ vesselName: await languageKeys(em) }),
  exampleFields: { vesselName: (name) => namesExample(name as string | Record<string, string>) },
  // What the web page's "who else" shows: how many sightings, by how many people, how many the caller's.
  ownOperations: [{ kind: 'observers', method: 'get', below: '/{id}/observers', roles: (access) => [access.read],
    handle: vesselObservers }],
} satisfies ResourceDescriptor<Vessel>;

/**
 * A text (inside a sighting's example) matches a name in any language; a language map wants each of its texts in
 * the name under that key. `$some` is a subquery: a vessel with two matching names is one match.
 */
function namesExample(name: string | Record<string, string>): FilterQuery<Vessel> {
  const names = typeof name === 'string'
    ? [{ translations: { $some: { text: matching(name) } } }]
    : Object.entries(name).map(([key, text]) => ({ translations: { $some: { languageKey: { $in: keyVariants(key) },
      text: matching(text) } } }));
  return { $and: names } as FilterQuery<Vessel>;
}

/** The spellings of a language key that match it: `pt-BR` also matches `pt_BR` (case as given, or lower). */
function keyVariants(key: string): string[] {
  const normalized = normalizeLanguageKey(key);
  return [...new Set([key, key.replace(/_/g, '-'), key.replace(/-/g, '_'), normalized, normalized.replace(/-/g, '_')])];
}
