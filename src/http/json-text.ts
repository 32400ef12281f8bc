// A JSON body's text as its value, as body-parser's strict JSON reads it.
import { malformedBody } from '../errors/refusals.ts';
import { parseUnrounded } from './unrounded-numbers.ts';
import { refuseDeepJson } from './body-depth.ts';

/** An empty text is `{}`; anything but an object or an array at the top, or text that is not JSON, is 400. */
export function jsonOfText(text: string): unknown {
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw malformedBody();
  refuseDeepJson(text);
  try {
    return parseUnrounded(text);
  } catch {
    throw malformedBody();
  }
}
