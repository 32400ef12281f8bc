// A list screen's address: its route and query (`#mine?from=…&to=…&sort=…`), rebuilt with one value changed, so
// Back, a reload and a shared link show the same list.
const sortPattern = /^-?(sightingId|sightingTimezone|sightingDate)$/;

/** The order the address asks for, if it is one the list can take. */
export function sortOf(query: URLSearchParams): string | undefined {
  const sort = query.get('sort') ?? '';
  return sortPattern.test(sort) ? sort : undefined;
}

/** `route` with `query` changed by `changes` (undefined removes a value). */
export function routeWith(route: string, query: URLSearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams(query);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(name);
    else next.set(name, value);
  }
  return String(next) ? `${route}?${next}` : route;
}

/**
 * How many pages the list shows, kept in the address as the person shows more (replacing the address, no new
 * history entry): Back from a record's page shows the list as it was.
 */
export function pagesIn(route: string, query: URLSearchParams): { pages: number; onPages(pages: number): void } {
  return {
    pages: Math.max(1, Number(query.get('pages')) || 1),
    onPages: (pages) => history.replaceState(null, '', routeWith(route, query, { pages: String(pages) })),
  };
}
