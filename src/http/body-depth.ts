// How deep a body may nest, and a scan of JSON text for it that neither parses nor recurses.
import { BadRequest } from '../errors/app-errors.ts';

/** Deeper than any body of ours needs (the deepest is 4 levels); every walk over a body can rely on it. */
export const maxBodyDepth = 32;

export const bodyTooDeep = (): BadRequest => new BadRequest('error.bodyTooDeep', { max: maxBodyDepth });

// Outside a string only quotes and brackets matter, inside one only its end and escapes: each is found by the regular
// expression engine, so a long text costs little more than its copy, and no input makes a pattern backtrack.
const quoteOrBracket = /["[\]{}]/g;
const quoteOrEscape = /["\\]/g;

/**
 * Throws the 400 when `text` opens more than `maxBodyDepth` objects and arrays inside each other. One pass over the
 * text, strings skipped: JSON.parse itself copes with any depth, but its reviver and every walk after it recurse,
 * and a 60 KB body can nest 30,000 deep. Malformed text (an unclosed string) is left for JSON.parse to refuse.
 */
export function refuseDeepJson(text: string): void {
  let depth = 0;
  // `test`, not `exec`: the match's place is `lastIndex`, and no match array is made per bracket or quote.
  quoteOrBracket.lastIndex = 0;
  while (quoteOrBracket.test(text)) {
    const token = text.charCodeAt(quoteOrBracket.lastIndex - 1);
    if (token === quote) {
      const end = stringEnd(text, quoteOrBracket.lastIndex);
      if (end < 0) return;
      quoteOrBracket.lastIndex = end + 1;
    } else if (token === openBrace || token === openBracket) {
      depth += 1;
      if (depth > maxBodyDepth) throw bodyTooDeep();
    } else {
      depth -= 1;
    }
  }
}

const [quote, openBrace, openBracket] = ['"', '{', '['].map((character) => character.charCodeAt(0));

/** The index of the quote that ends the string starting at `from`, or -1 when it never ends. */
function stringEnd(text: string, from: number): number {
  quoteOrEscape.lastIndex = from;
  while (quoteOrEscape.test(text)) {
    const at = quoteOrEscape.lastIndex - 1;
    if (text.charCodeAt(at) === quote) return at;
    // An escape: the character after the backslash is never the string's end.
    quoteOrEscape.lastIndex = at + 2;
  }
  return -1;
}
