// Which of openapi.yaml's paths and operations an observed request named: the tests' own reading of the contract.
import { openApiDocument, type Operation } from '../../src/contract/document.ts';

// Fixed paths before templated ones (`/sighting/qbe` before `/sighting/{id}`), a parameter as one segment before
// `{id}` as the greedy text it may be (it may hold `/`); a trailing slash names the same path.
const ordered = Object.keys(openApiDocument.paths).sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')));
const matcher = (parameter: string) =>
  ordered.map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, parameter)}/?$`) }));
const templates = [...matcher('[^/]+'), ...matcher('.+')];

export function pathTemplate(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.template;
}

export function operationFor(method: string, path: string): Operation | undefined {
  const template = pathTemplate(path);
  return template === undefined ? undefined : openApiDocument.paths[template]![method.toLowerCase()];
}

/** What of a request, besides its method and path, says which declared operation answers it. */
export interface AskedFor {
  /** The query string (`?view=detail`), or empty. */
  search?: string;
  headers?: Headers;
}

/**
 * RFC 7240: the first `return` preference is `representation` (names and values case-insensitive, optionally quoted).
 */
const asksForRepresentation = (prefer: string | null) => {
  const first = (prefer ?? '').split(',').find((p) => /^\s*return\s*(=|;|$)/i.test(p));
  return first !== undefined && /^\s*return\s*=\s*"?representation"?\s*(;|$)/i.test(first);
};

/**
 * The operation that answers a request, read from the contract alone: the one of its method and path, unless that
 * one names another for what was asked (`x-view-operations` for `view`, `x-representation-operation` for
 * `Prefer: return=representation`). Undefined when the path or method is not in the contract.
 */
export function answeringOperation(method: string, path: string,
  asked: AskedFor = {}): { template: string; method: string } | undefined {
  const template = pathTemplate(path);
  const operation = operationFor(method, path);
  if (template === undefined || !operation) return undefined;
  const view = new URLSearchParams(asked.search ?? '').get('view');
  const views = operation['x-view-operations'];
  // Own keys only: `?view=__defineGetter__` names no view (the service reads it so too).
  const other = (view !== null && views && Object.hasOwn(views, view) && views[view])
    || (asksForRepresentation(asked.headers?.get('prefer') ?? null) && operation['x-representation-operation'])
      || undefined;
  if (!other) return { template, method: method.toLowerCase() };
  const found = Object.entries(openApiDocument.paths)
    .flatMap(([at, item]) => Object.entries(item).map(([verb, o]) => ({ at, verb, o })))
    .find(({ o }) => o.operationId === other);
  if (!found) throw new Error(`openapi.yaml names ${other}, which it does not declare`);
  return { template: found.at, method: found.verb };
}
