// The schema keywords that constrain one value — type, format, enum/const, bounds, pattern — compared in a
// direction: a narrowing breaks what a client sends, a widening breaks what a client receives.
import { show, typesOf } from './describe.ts';
import type { Node } from './document.ts';
import { code, type Direction, type Level, type SchemaChange } from './finding.ts';

/** The level of a change that narrows (`narrows`) and/or widens (`widens`) the values a schema allows. */
export function levelOf(direction: Direction, narrows: boolean, widens: boolean): Level {
  return (direction === 'request' && narrows) || (direction === 'response' && widens) ? 'breaking' : 'compatible';
}

/** Whether `types` admit every value of `type` (an integer is a number). */
const covers = (types: string[], type: string) =>
  types.includes(type) || (type === 'integer' && types.includes('number'));

const upperBounds = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const lowerBounds = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];

/** The generators whose SDKs turn an enum into a type of named constants. */
export const sdkEnumBreak =
  ' (generated SDKs lose the constant: typescript-fetch, typescript-axios, python, java, go, kotlin, csharp)';

const valuesOf = (schema: Node): unknown[] | undefined =>
  Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;

interface KeywordChanges {
  changes: SchemaChange[];
  /** The types share none: no other keyword nor what is inside is compared (it would only repeat the change). */
  unrelated: boolean;
}

export function keywordChanges(old: Node, next: Node, direction: Direction, path: string): KeywordChanges {
  const changes: SchemaChange[] = [];
  const change = (narrows: boolean, widens: boolean, message: string) =>
    changes.push({ level: levelOf(direction, narrows, widens), path, message });

  const oldTypes = typesOf(old);
  const newTypes = typesOf(next);
  if (oldTypes?.join() !== newTypes?.join()) {
    const removed = oldTypes ? oldTypes.filter((type) => !newTypes || !covers(newTypes, type)) : ['any'];
    const added = newTypes ? newTypes.filter((type) => !oldTypes || !covers(oldTypes, type)) : ['any'];
    const name = (types?: string[]) => code(types ? types.join(' | ') : 'any');
    if (removed.length || added.length) {
      change(removed.length > 0, added.length > 0, `type ${name(oldTypes)} → ${name(newTypes)}`);
    }
    // `null` beside two unrelated types (`string | null` → `integer | null`) does not relate them.
    const values = (types?: string[]) => types?.filter((type) => type !== 'null');
    const [was, is] = [values(oldTypes), values(newTypes)];
    const overlap = (type: string) => covers(is ?? [], type) || !!is?.some((other) => covers([type], other));
    if (was?.length && is?.length && !was.some(overlap)) return { changes, unrelated: true };
  }
  if (old.format !== next.format) {
    change(next.format !== undefined, old.format !== undefined, `format ${show(old.format)} → ${show(next.format)}`);
  }

  const oldValues = valuesOf(old);
  const newValues = valuesOf(next);
  if (oldValues || newValues) {
    const has = (values: unknown[], value: unknown) => values.some((v) => JSON.stringify(v) === JSON.stringify(value));
    const removed = oldValues && newValues ? oldValues.filter((v) => !has(newValues, v)) : [];
    const added = oldValues && newValues ? newValues.filter((v) => !has(oldValues, v)) : [];
    if (!oldValues) change(true, false, `now restricted to ${show(newValues)}`);
    else if (!newValues) change(false, true, `no longer restricted to ${show(oldValues)}`);
    const plural = (values: unknown[]) => (values.length > 1 ? 's' : '');
    if (removed.length) {
      const named = `enum value${plural(removed)} removed: ${removed.map(show).join(', ')}`;
      // Safe on the wire, but every generator that types enums drops the constant, and code naming it stops compiling.
      if (direction === 'response') changes.push({ level: 'breaking', path, message: `${named}${sdkEnumBreak}` });
      else change(true, false, named);
    }
    if (added.length) {
      const why = direction === 'response' ? ' (a value clients built from the old contract do not know)' : '';
      change(false, true, `enum value${plural(added)} added: ${added.map(show).join(', ')}${why}`);
    }
  }

  for (const [keywords, upper] of [[upperBounds, true], [lowerBounds, false]] as const) {
    for (const keyword of keywords) {
      const was = typeof old[keyword] === 'number' ? old[keyword] : undefined;
      const is = typeof next[keyword] === 'number' ? next[keyword] : undefined;
      if (was === is) continue;
      // An upper bound narrows when it appears or falls, a lower one when it appears or rises.
      const tighter = is !== undefined && (was === undefined || (upper ? is < was : is > was));
      change(tighter, !tighter, `${keyword} ${show(was)} → ${show(is)} (${tighter ? 'narrowed' : 'widened'})`);
    }
  }
  for (const keyword of ['pattern', 'multipleOf'] as const) {
    if (old[keyword] === next[keyword]) continue;
    // A different pattern or step admits other values: both directions can break.
    const message = `${keyword} ${show(old[keyword])} → ${show(next[keyword])}`;
    change(next[keyword] !== undefined, old[keyword] !== undefined, message);
  }
  if (!!old.uniqueItems !== !!next.uniqueItems) {
    change(!!next.uniqueItems, !!old.uniqueItems, `uniqueItems ${!!old.uniqueItems} → ${!!next.uniqueItems}`);
  }
  if (JSON.stringify(old.default) !== JSON.stringify(next.default)) {
    changes.push({ level: 'compatible', path, message: `default ${show(old.default)} → ${show(next.default)}` });
  }
  if (next.deprecated === true && old.deprecated !== true) {
    changes.push({ level: 'deprecated', path, message: 'deprecated' });
  }
  return { changes, unrelated: false };
}
