// The contract's JSON pointers and local `$ref`s, followed to the node they name.
import { openApiDocument, type Reference } from './document.ts';

/** RFC 6901: `pointer('paths', '/sighting', 'get')` is `/paths/~1sighting/get`. */
export const pointer = (...segments: string[]): string =>
  segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

const at = (path: string): unknown => path.split('/').slice(1)
  .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g,
    '~')], openApiDocument);
const referenceOf = (node: unknown) => (node as Partial<Reference> | null | undefined)?.$ref;

/** Follows `$ref`s from the node at `path` to the node they end at, with its own pointer (ajv names schemas by it). */
export function dereference(path: string): { pointer: string; node: unknown } {
  let node = at(path);
  for (let ref = referenceOf(node); ref; ref = referenceOf(node)) node = at(path = ref.slice(1));
  return { pointer: path, node };
}

/** Follows `#/…` references until a node that is not one. */
export function referencedNode<T>(node: T | Reference): T {
  const ref = referenceOf(node);
  return (ref ? dereference(ref.slice(1)).node : node) as T;
}
