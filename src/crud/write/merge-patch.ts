// JSON Merge Patch (RFC 7396): a member present replaces, null removes, an absent one stays; objects merge member-wise.
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
  && !Array.isArray(value);

// Recursive, but over a parsed body: no body nests more than maxBodyDepth (src/http/body-depth.ts), so neither does
// this.
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  // Without a prototype: a member is a member whatever its name. On a plain object, `result['__proto__'] = …` (a name
  // JSON may carry, a language key among them) would set the prototype and silently drop the member.
  const result: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, isObject(target)
    ? target : {});
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = mergePatch(result[name], value);
  }
  return result;
}
