// A parsed OpenAPI document and the one thing every comparison needs from it: following local `$ref`s.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type Node = Record<string, unknown>;

export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class Contract {
  readonly root: Node;

  constructor(root: unknown) {
    if (!isNode(root)) throw new Error('an OpenAPI document must be a mapping');
    this.root = root;
  }

  static fromFile(file: string): Contract {
    // Anchors and aliases are merged by the parser; the contract uses them for shared constants.
    return new Contract(parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 }));
  }

  /**
   * Follows `$ref`s (local JSON pointers, RFC 6901) to the node they name; `name` is the last referenced component's
   * name (`SightingDetail`), which labels a schema in messages and matches `anyOf` branches across versions.
   */
  resolve(value: unknown): { node: Node; name?: string; ref?: string } {
    let node = value;
    let name: string | undefined;
    let ref: string | undefined;
    const seen = new Set<string>();
    while (isNode(node) && typeof node.$ref === 'string') {
      ref = node.$ref;
      if (seen.has(ref)) throw new Error(`$ref cycle at ${ref}`);
      seen.add(ref);
      if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, not ${ref}`);
      const segments = ref.slice(1).split('/').slice(1)
        .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
      name = segments.at(-1);
      node = segments.reduce<unknown>((at, key) => (isNode(at) || Array.isArray(at) ? (at as Node)[key] : undefined),
        this.root);
      if (node === undefined) throw new Error(`$ref ${ref} names nothing`);
    }
    return { node: isNode(node) ? node : {}, name, ref };
  }
}
