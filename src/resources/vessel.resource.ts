// The vessel collection as data for the generic CRUD machinery; its names are a language map.
import type { FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { containsPattern } from '../crud/like-pattern.ts';
import { Vessel } from '../db/entities/vessel.entity.ts';
import { languageMap, localizedName, replaceNames, normalizeLanguageKey, namesColumn } from './vessel-names.ts';

export const vesselResource: ResourceDescriptor<Vessel> = {
  name: 'vessel',
  entity: Vessel,
  idProperty: 'vesselId',
  populate: ['translations'],
  filters: { vesselId: 'vesselId', version: 'version' },
  access: { read: 'reader', create: 'admin', change: 'admin' },
  selectView: (qb) => qb.select(['r.version', 'r.vesselId', namesColumn('"r"."vessel_id"')]),
  listView: (row, locale) => ({ vesselId: Number(row.vessel_id), vesselName: localizedName(row.vessel_names, locale) }),
  detailView: (row) => ({ version: row.version, vesselId: Number(row.vessel_id), vesselName: languageMap(row.vessel_names) }),
  async write(vessel, body, { em }) {
    replaceNames(em, vessel, body.vesselName as Record<string, string>);
  },
  example: (body) => vesselExample(body),
};

/** Also used for the vessel inside a sighting example. `$some` is a subquery: a vessel with two matching names is one match. */
export function vesselExample(body: Record<string, unknown>): FilterQuery<Vessel> {
  const name = body.vesselName as string | Record<string, string> | undefined;
  const names = typeof name === 'string'
    ? [{ translations: { $some: { text: { $ilike: containsPattern(name) } } } }]
    : Object.entries(name ?? {}).map(([key, text]) => ({
      translations: { $some: { languageKey: { $in: keyVariants(key) }, text: { $ilike: containsPattern(text) } } },
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
