// A JSON array's elements read from its text as it arrives in pieces: each element parsed as soon as its text is
// whole, so neither the whole text nor more than one element's text is ever held.
import { malformedBody } from '../errors/refusals.ts';
import { bodyTooDeep, maxBodyDepth } from './body-depth.ts';
import { parseUnrounded } from './unrounded-numbers.ts';

// Outside a string only quotes, brackets and commas matter, inside one only its end and escapes (as body-depth.ts).
const structural = /["[\]{},]/g;
const quoteOrEscape = /["\\]/g;
const blank = /^[ \t\n\r]*$/;

/**
 * The top-level array's elements, in order, each handed to `element` with its 1-based position. The depth bound is
 * the whole body's (the array itself is one level), as `refuseDeepJson` counts it; any text that is not one JSON
 * array is a 400 (malformed), as parsing it whole would be.
 */
export class JsonArrayElements {
  private depth = 0;
  private inString = false;
  /** A piece ended on a backslash inside a string: the next piece's first character is escaped. */
  private escaped = false;
  private closed = false;
  /** The current element's text from earlier pieces. */
  private carried = '';
  private count = 0;

  private readonly element: (value: unknown, position: number) => void;

  constructor(element: (value: unknown, position: number) => void) {
    this.element = element;
  }

  /** The next piece of the text; the first holds at least the `[` (the caller looked for it). */
  push(piece: string): void {
    let start = 0;
    let at = 0;
    if (this.escaped) {
      this.escaped = false;
      at = 1;
    }
    while (at < piece.length) {
      if (this.closed) {
        if (!blank.test(piece.slice(at))) throw malformedBody();
        return;
      }
      if (this.inString) {
        quoteOrEscape.lastIndex = at;
        const found = quoteOrEscape.exec(piece);
        if (!found) break;
        if (found[0] === '"') {
          this.inString = false;
          at = found.index + 1;
        } else if (found.index + 1 === piece.length) {
          this.escaped = true;
          break;
        } else {
          at = found.index + 2;
        }
        continue;
      }
      structural.lastIndex = at;
      const found = structural.exec(piece);
      if (!found) break;
      at = found.index + 1;
      const token = found[0];
      if (token === '"') {
        this.inString = true;
      } else if (token === '[' || token === '{') {
        this.depth += 1;
        if (this.depth > maxBodyDepth) throw bodyTooDeep();
        // The array's own bracket: its first element starts after it.
        if (this.depth === 1) {
          if (token !== '[' || !blank.test(this.carried + piece.slice(start, found.index))) throw malformedBody();
          this.carried = '';
          start = at;
        }
      } else if (token === ']' || token === '}') {
        this.depth -= 1;
        if (this.depth < 0) throw malformedBody();
        if (this.depth === 0) {
          if (token !== ']') throw malformedBody();
          this.end(piece.slice(start, found.index), true);
          this.closed = true;
          start = at;
        }
      } else if (this.depth === 1) {
        this.end(piece.slice(start, found.index), false);
        start = at;
      }
    }
    if (!this.closed) this.carried += piece.slice(start);
  }

  /** After the last piece: the array must have been closed. */
  finish(): number {
    if (!this.closed) throw malformedBody();
    return this.count;
  }

  /** An element's text is whole (`last`: the array's end); `[]` has none. */
  private end(tail: string, last: boolean): void {
    const text = this.carried + tail;
    this.carried = '';
    if (last && this.count === 0 && blank.test(text)) return;
    let value: unknown;
    try {
      value = parseUnrounded(text);
    } catch {
      throw malformedBody();
    }
    this.count += 1;
    this.element(value, this.count);
  }
}
