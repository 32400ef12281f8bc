// A list screen's address: its route and query (`#mine?from=…&to=…&sort=…`), rebuilt with one value changed, so
// Back, a reload and a shared link show the same list.
/** The order the address asks for, if the list can take it: each field one the contract lets it sort by. */
export function sortOf(query: URLSearchParams, sortable: string[]): string | undefined {
  const sort = query.get('sort') ?? '';
  const fields = sort.split(',').map((part) => part.replace(/^-/, ''));
  return sort && fields.every((field) => sortable.includes(field)) ? sort : undefined;
}

/** The page sizes a person may pick; the API takes up to 1,000, a page of 200 rows is still quick to read. */
export const pageSizes = [25, 50, 100, 200];

/** The page size the address asks for (`size=100`), else 50. */
export const sizeOf = (query: URLSearchParams): number =>
  pageSizes.find((size) => String(size) === query.get('size')) ?? 50;

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
 * history entry): Back from a record's page shows the list as it was. Also its page size, a new list when changed.
 */
export function pagesIn(route: string, query: URLSearchParams): {
  pages: number; onPages(pages: number): void; size: number; resize(size: number): void; page: number;
  jump(page: number): void;
} {
  return {
    pages: Math.max(1, Number(query.get('pages')) || 1),
    onPages: (pages) => history.replaceState(null, '', routeWith(route, query, { pages: String(pages) })),
    size: sizeOf(query),
    resize: (size) => {
      location.hash = routeWith(route, query, { size: String(size), pages: undefined, page: undefined });
    },
    // Page 1 is the list as it opens: no `page=` in its address.
    page: Math.max(1, Math.floor(Number(query.get('page'))) || 1),
    jump: (page) => {
      location.hash = routeWith(route, query, { page: page > 1 ? String(page) : undefined, pages: undefined });
    },
  };
}
