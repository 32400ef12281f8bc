// A small deterministic generator (mulberry32), so a failing fuzz case names a seed that reproduces it.
export type Random = () => number;

export function seededRandom(seed: number): Random {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(next: Random, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

/** What no answer may carry, whatever went wrong: an HTML page, a stack frame, a source path. */
export const leak = /<html|<!doctype|<pre>|\bat [^\s]+ \(|\.ts:\d+|node_modules|\/work\//i;
