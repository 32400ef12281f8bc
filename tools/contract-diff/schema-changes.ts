// Compares two schemas in a direction, through `$ref`s, `allOf` (merged), `anyOf`/`oneOf` (branch by branch),
// object properties, `additionalProperties`, array items and tuples: every change, with the path to it.
import { describe } from './describe.ts';
import { isNode, type Contract, type Node } from './document.ts';
import { code, type Direction, type SchemaChange } from './finding.ts';
import { keywordChanges, levelOf } from './keyword-changes.ts';

const step = (path: string, segment: string) =>
  (!path || /^[[(]/.test(segment) ? `${path}${segment}` : `${path}.${segment}`);

/** Two versions of one schema compared in one direction, the changes collected with their paths. */
export class SchemaComparison {
  private readonly changes: SchemaChange[] = [];
  /** The `$ref` pairs being compared further up: a recursive schema is compared once. */
  private readonly open = new Set<string>();

  private readonly old: Contract;
  private readonly next: Contract;
  private readonly direction: Direction;

  private constructor(old: Contract, next: Contract, direction: Direction) {
    this.old = old;
    this.next = next;
    this.direction = direction;
  }

  /** The changes from `oldSchema` to `newSchema` (as written, with `$ref`s), paths from the schema's root. */
  static run(old: Contract, next: Contract, direction: Direction, oldSchema: unknown,
    newSchema: unknown): SchemaChange[] {
    const comparison = new SchemaComparison(old, next, direction);
    comparison.compare(oldSchema, newSchema, '');
    return comparison.changes;
  }

  private compare(oldRaw: unknown, newRaw: unknown, path: string): void {
    if (oldRaw === false || newRaw === false) {
      const message = `${describe(this.old, oldRaw)} → ${describe(this.next, newRaw)}`;
      if (oldRaw !== newRaw) this.add(newRaw === false, oldRaw === false, path, message);
      return;
    }
    const old = this.old.resolve(oldRaw);
    const next = this.next.resolve(newRaw);
    const pair = `${old.ref ?? ''}|${next.ref ?? ''}`;
    if (pair !== '|' && this.open.has(pair)) return;
    this.open.add(pair);
    try {
      this.compareResolved(withSiblings(this.old, oldRaw, old.node), withSiblings(this.next, newRaw, next.node), path,
        old.name, next.name);
    } finally {
      this.open.delete(pair);
    }
  }

  private compareResolved(old: Node, next: Node, path: string, oldName?: string, newName?: string): void {
    const oldBranches = branchesOf(old);
    const newBranches = branchesOf(next);
    if (oldBranches || newBranches) {
      this.compareBranches(oldBranches ?? [{ label: oldName ?? '#0', schema: old }],
        newBranches ?? [{ label: newName ?? '#0', schema: next }], path, (newBranches ?? oldBranches)!.kind);
      // A schema with branches may constrain beside them too (`type: object` + `oneOf`).
      if (!oldBranches || !newBranches) return;
    }
    const { changes, unrelated } = keywordChanges(withoutBranches(old), withoutBranches(next), this.direction, path);
    this.changes.push(...changes);
    if (unrelated) return;
    this.compareProperties(old, next, path);
    this.compareAdditional(old, next, path);
    if (old.propertyNames !== undefined || next.propertyNames !== undefined) {
      // The keys of a map are sent and received like values.
      this.compare(old.propertyNames ?? true, next.propertyNames ?? true, step(path, '(key)'));
    }
    if (old.items !== undefined || next.items !== undefined) {
      this.compare(old.items ?? true, next.items ?? true, step(path, '[]'));
    }
    const oldTuple = Array.isArray(old.prefixItems) ? old.prefixItems : [];
    const newTuple = Array.isArray(next.prefixItems) ? next.prefixItems : [];
    for (let i = 0; i < Math.max(oldTuple.length, newTuple.length); i++) {
      this.compare(oldTuple[i] ?? true, newTuple[i] ?? true, step(path, `[${i}]`));
    }
  }

  private compareBranches(old: Branch[], next: Branch[], path: string, kind: string): void {
    const pairs = matchBranches(old, next);
    for (const { old: before, next: after } of pairs) {
      if (before && after) {
        const label = before.label === after.label ? before.label : `${before.label}→${after.label}`;
        this.compare(before.schema, after.schema, step(path, `${kind}[${label}]`));
      } else if (before) {
        const what = describe(this.old, before.schema);
        this.add(true, false, path, `${kind} branch ${code(before.label)} removed (${what})`);
      } else if (after) {
        const why = this.direction === 'response' ? ': a shape clients built from the old contract do not know' : '';
        const what = describe(this.next, after.schema);
        this.add(false, true, path, `${kind} branch ${code(after.label)} added (${what})${why}`);
      }
    }
  }

  private compareProperties(old: Node, next: Node, path: string): void {
    const oldProperties = this.visible(this.old, old);
    const newProperties = this.visible(this.next, next);
    const oldRequired = new Set(Array.isArray(old.required) ? old.required.map(String) : []);
    const newRequired = new Set(Array.isArray(next.required) ? next.required.map(String) : []);
    for (const [name, schema] of oldProperties) {
      const at = step(path, name);
      if (!newProperties.has(name)) {
        const was = `was ${code(describe(this.old, schema))}${oldRequired.has(name) ? ', required' : ''}`;
        if (this.direction === 'response') this.add(false, true, at, `property removed (${was})`);
        else if (isClosed(next)) this.add(true, false, at, `property removed (${was}); sending it is refused now`);
        else this.add(false, false, at, `property removed (${was}); no longer read`);
        continue;
      }
      this.compare(schema, newProperties.get(name), at);
      if (oldRequired.has(name) !== newRequired.has(name)) {
        const required = newRequired.has(name);
        this.add(required, !required, at, required ? 'now required' : 'no longer required (may be absent)');
      }
    }
    for (const [name, schema] of newProperties) {
      if (oldProperties.has(name)) continue;
      const required = newRequired.has(name);
      const what = `${code(describe(this.next, schema))}`;
      this.add(required, false, step(path, name), `new ${required ? 'required' : 'optional'} property (${what})`);
    }
  }

  private compareAdditional(old: Node, next: Node, path: string): void {
    const oldMore = additionalOf(old);
    const newMore = additionalOf(next);
    if (oldMore === undefined && newMore === undefined) return;
    if (oldMore === false || newMore === false) {
      // A closed object opened is like new properties: compatible both ways; closing one refuses what was sent.
      const now = newMore === false ? 'refused' : 'allowed';
      if (oldMore !== newMore) this.add(newMore === false, false, path, `additional properties now ${now}`);
      return;
    }
    this.compare(oldMore ?? true, newMore ?? true, step(path, '{*}'));
  }

  /** The properties that travel in this direction: a `readOnly` one is never sent, a `writeOnly` one never received. */
  private visible(contract: Contract, schema: Node): Map<string, unknown> {
    const hidden = this.direction === 'request' ? 'readOnly' : 'writeOnly';
    const properties = isNode(schema.properties) ? Object.entries(schema.properties) : [];
    const travels = (raw: unknown) =>
      !(isNode(raw) && raw[hidden] === true) && contract.resolve(raw).node[hidden] !== true;
    return new Map(properties.filter(([, raw]) => travels(raw)));
  }

  private add(narrows: boolean, widens: boolean, path: string, message: string): void {
    this.changes.push({ level: levelOf(this.direction, narrows, widens), path, message });
  }
}

interface Branch {
  /** The referenced component's name, `null` for `{type: 'null'}`, else `#<index>`. */
  label: string;
  schema: unknown;
}

function branchesOf(schema: Node): (Branch[] & { kind: string }) | undefined {
  const kind = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
  if (!kind) return undefined;
  const branches = (schema[kind] as unknown[]).map((raw, index) => {
    const ref = isNode(raw) && typeof raw.$ref === 'string' ? raw.$ref.split('/').at(-1) : undefined;
    const title = isNode(raw) && typeof raw.title === 'string' ? raw.title : undefined;
    const label = ref ?? (isNode(raw) && raw.type === 'null' ? 'null' : title ?? `#${index}`);
    return { label, schema: raw };
  });
  return Object.assign(branches, { kind });
}

/** Branches pair by label; one branch left on each side is the same branch renamed. */
function matchBranches(old: Branch[], next: Branch[]): { old?: Branch; next?: Branch }[] {
  const pairs: { old?: Branch; next?: Branch }[] =
    old.map((branch) => ({ old: branch, next: next.find((b) => b.label === branch.label) }));
  const added = next.filter((branch) => !old.some((b) => b.label === branch.label));
  const lonely = pairs.filter((pair) => !pair.next);
  if (lonely.length === 1 && added.length === 1) lonely[0]!.next = added.pop();
  return [...pairs, ...added.map((branch) => ({ next: branch }))];
}

/** Keywords beside a `$ref` that constrain nothing. */
const annotations = new Set(['$ref', 'description', 'summary', 'title', 'example', 'examples', '$comment']);

/**
 * The schema `node` that `raw` refers to, with `allOf` merged and with the keywords written beside the `$ref`, which
 * apply too in OpenAPI 3.1 (JSON Schema 2020-12 §8.2.3.1): `{ $ref: Memo, maxLength: 100 }`.
 */
function withSiblings(contract: Contract, raw: unknown, node: Node): Node {
  const siblings = isNode(raw) && raw.$ref !== undefined ? Object.keys(raw).filter((key) => !annotations.has(key)) : [];
  if (!siblings.length) return mergeAllOf(contract, node);
  const beside = Object.fromEntries(siblings.map((key) => [key, (raw as Node)[key]]));
  return mergeAllOf(contract, { ...beside, allOf: [node] });
}

const withoutBranches = ({ anyOf: _a, oneOf: _o, ...rest }: Node): Node => rest;

/** `additionalProperties`, or `unevaluatedProperties` where only that is given; `true` for a schema of any value. */
function additionalOf(schema: Node): unknown {
  return schema.additionalProperties ?? schema.unevaluatedProperties;
}

const isClosed = (schema: Node) => additionalOf(schema) === false;

/** `allOf` merged into one schema: properties side by side (both when two name one), `required` united. */
function mergeAllOf(contract: Contract, schema: Node, depth = 0): Node {
  if (!Array.isArray(schema.allOf) || depth > 32) return schema;
  const { allOf, ...merged } = schema;
  const properties: Node = isNode(merged.properties) ? { ...merged.properties } : {};
  const required = new Set(Array.isArray(merged.required) ? merged.required.map(String) : []);
  for (const raw of allOf as unknown[]) {
    const part = mergeAllOf(contract, contract.resolve(raw).node, depth + 1);
    for (const [name, property] of Object.entries(isNode(part.properties) ? part.properties : {})) {
      properties[name] = name in properties ? { allOf: [properties[name], property] } : property;
    }
    if (Array.isArray(part.required)) part.required.forEach((name) => required.add(String(name)));
    for (const [keyword, value] of Object.entries(part)) if (!(keyword in merged)) merged[keyword] = value;
  }
  return { ...merged, properties, required: [...required] };
}
