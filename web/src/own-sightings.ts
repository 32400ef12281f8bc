// Which of the sightings on screen are the person's own (to offer edit and delete), asked for those rows only.
import type { Context } from './context.ts';

/** A sighting list's filters besides `mine`. */
export type SightingFilters = { vesselId?: number; sightingDateFrom?: string; sightingDateBefore?: string };

/**
 * The caller's sightings among `ids`, with the list's own filters (`?mine=true&after=…`): the ids from the smallest
 * shown upwards, at most as many as are shown (a page of a filtered list is a run of that list's ids), or up to 1000
 * for rows that are not a run (search results).
 */
export async function ownAmong(ctx: Context, ids: number[], filters: SightingFilters = {}, run = true): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const after = Math.min(...ids) - 1;
  const limit = run ? Math.min(ids.length, 1000) : 1000;
  const { data } = await ctx.api.GET('/sighting', { params: { query: { ...filters, mine: true, after, limit } } });
  const shown = new Set(ids);
  return new Set((data ?? []).map((sighting) => sighting.sightingId).filter((id) => shown.has(id)));
}
