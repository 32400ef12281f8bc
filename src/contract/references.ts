// The contract's JSON pointers and local `$ref`s: the node a pointer names, and a reference followed to its target.
import { openApiDocument, type Reference } from './document.ts';

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** RFC 6901: `pointer('paths', '/sighting', 'get')` is `/paths/~1sighting/get`. */
export const pointer = (...segments: string[]): string => segments.map((s) => `/${escape(s)}`).join('');

/** The node at a JSON pointer into the contract, or undefined. */
export function at(path: string): unknown {
  return path.split('/').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[unescape(key)], openApiDocument);
}

const referenceOf = (node: unknown) => (node && typeof node === 'object' && typeof (node as Reference).$ref === 'string' ? (node as Reference).$ref : undefined);

/** Follows `$ref`s from the node at `path`; the target with its own pointer (a schema's errors are named by it). */
export function dereference(path: string): { pointer: string; node: unknown } {
  let node = at(path);
  for (let ref = referenceOf(node); ref; ref = referenceOf(node)) {
    path = ref.slice(1);
    node = at(path);
  }
  return { pointer: path, node };
}

/** Follows `#/…` references until a node that is not one. */
export function resolve<T>(node: T | Reference): T {
  let current: unknown = node;
  for (let ref = referenceOf(current); ref; ref = referenceOf(current)) current = at(ref.slice(1));
  return current as T;
}
