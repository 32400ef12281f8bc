// Which path of openapi.yaml a request's path names: a table of segments built once at start, walked once per request.

export interface PathMatch {
  /** The contract's path: `/sighting/{id}`. */
  template: string;
  /** Its parameters, decoded (`decodeURIComponent`: a malformed escape throws URIError). */
  params: Record<string, string>;
}

interface Node {
  /** Fixed segments, lower-cased: paths match whatever their case, as express's routes did. */
  fixed: Map<string, Node>;
  parameter?: { name: string; node: Node };
  template?: string;
}

const node = (): Node => ({ fixed: new Map() });

/** A path without parameters: one object shared by all of them (each parameter found copies it). */
const noParams: Record<string, string> = Object.freeze({});

/**
 * A fixed segment wins over a parameter (`/sighting/qbe` is the query, not the record `qbe`); a parameter is one
 * non-empty segment, so an id holding `/` names no path here (such an id names no record, docs/behaviour.md#ids).
 */
export function pathTable(templates: Iterable<string>): (path: string) => PathMatch | undefined {
  const root = node();
  for (const template of templates) {
    let at = root;
    for (const segment of template.split('/').slice(1)) {
      const name = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (name) at = (at.parameter ??= { name, node: node() }).node;
      else at = at.fixed.get(segment.toLowerCase())
        ?? at.fixed.set(segment.toLowerCase(), node()).get(segment.toLowerCase())!;
    }
    at.template = template;
  }
  const walk = (at: Node, segments: readonly string[], index: number,
    params: Record<string, string>): PathMatch | undefined => {
    if (index === segments.length) return at.template === undefined ? undefined : { template: at.template, params };
    const segment = segments[index]!;
    const fixed = at.fixed.get(segment.toLowerCase());
    const found = fixed && walk(fixed, segments, index + 1, params);
    if (found || !at.parameter || !segment) return found;
    return walk(at.parameter.node, segments, index + 1,
      { ...params, [at.parameter.name]: decodeURIComponent(segment) });
  };
  return (path) => {
    // One trailing slash is the same path, as in express's non-strict routing.
    const segments = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/').slice(1);
    return walk(root, segments, 0, noParams);
  };
}
