// The vessel collection as data for the generic CRUD machinery; its names are a language map.
import type { FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { containsPattern } from '../crud/like-pattern.ts';
import { Vessel } from '../db/entities/index.ts';
import { languageMap, localizedName, replaceNames, normalizeLanguageKey } from './vessel-names.ts';

export const vesselResource: ResourceDescriptor<Vessel> = {
  name: 'vessel',
  entity: Vessel,
  idProperty: 'vesselId',
  populate: ['translations'],
  filters: { vesselId: 'vesselId', version: 'version' },
  access: { read: 'reader', create: 'admin', change: 'admin' },
  listView: (vessel, locale) => ({ vesselId: vessel.vesselId, vesselName: localizedName(vessel.translations, locale) }),
  detailView: (vessel) => ({ version: vessel.version, vesselId: vessel.vesselId, vesselName: languageMap(vessel.translations) }),
  async write(vessel, body, { em }) {
    replaceNames(em, vessel, body.vesselName as Record<string, string>);
  },
  example: (body) => vesselExample(body),
};

/** Also used for the vessel inside a sighting example. */
export function vesselExample(body: Record<string, unknown>): FilterQuery<Vessel> {
  const name = body.vesselName as string | Record<string, string> | undefined;
  const names = typeof name === 'string'
    ? [{ translations: { text: { $ilike: containsPattern(name) } } }]
    : Object.entries(name ?? {}).map(([key, text]) => ({
      translations: { languageKey: { $in: keyVariants(key) }, text: { $ilike: containsPattern(text) } },
    }));
  return {
    ...(body.vesselId !== undefined && { vesselId: body.vesselId as number }),
    ...(body.version !== undefined && { version: body.version as number }),
    ...(names.length > 0 && { $and: names }),
  } as FilterQuery<Vessel>;
}

/** The spellings of a language key that match it: `pt-BR` also matches `pt_BR` (case as given, or lower). */
function keyVariants(key: string): string[] {
  const normalized = normalizeLanguageKey(key);
  return [...new Set([key, key.replace(/_/g, '-'), key.replace(/-/g, '_'), normalized, normalized.replace(/-/g, '_')])];
}
