// How deep a body may nest, and a scan of JSON text for it that neither parses nor recurses.
import { BadRequest } from '../errors/app-errors.ts';

/** Deeper than any body of ours needs (the deepest is 4 levels); every walk over a body can rely on it. */
export const maxBodyDepth = 32;

export const bodyTooDeep = (): BadRequest => new BadRequest('error.bodyTooDeep', { max: maxBodyDepth });

const quote = 0x22;
const backslash = 0x5c;
const opening = new Set([0x7b, 0x5b]);
const closing = new Set([0x7d, 0x5d]);

/**
 * Throws the 400 when `text` opens more than `maxBodyDepth` objects and arrays inside each other. One pass over the
 * characters, skipping strings: JSON.parse itself copes with any depth, but its reviver and every walk after it
 * recurse, and a 60 KB body can nest 30,000 deep. Malformed text is left for JSON.parse to refuse.
 */
export function refuseDeepJson(text: string): void {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === backslash) index += 1;
      else if (code === quote) inString = false;
    } else if (code === quote) {
      inString = true;
    } else if (opening.has(code)) {
      depth += 1;
      if (depth > maxBodyDepth) throw bodyTooDeep();
    } else if (closing.has(code)) {
      depth -= 1;
    }
  }
}
