// A query string with its values taken out: what a trace may show of a request's query.

/** `vesselId=-1&sightingMemo=x&mine` → `vesselId&sightingMemo&mine`: each parameter's name once, in order. */
export function queryNames(query: string): string {
  return [...new Set(new URLSearchParams(query).keys())].join('&');
}
