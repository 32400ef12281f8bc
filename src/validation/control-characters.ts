// Control characters, defined once: Unicode's general category Cc (U+0000–U+001F and U+007F–U+009F).

/** Any control character: what an identifier (a token's claim) may not hold. */
export const controlCharacter = /\p{Cc}/u;

/** In a text a person writes (a memo, a name, a filter): a control character other than tab, line feed and CR. */
export const textControlCharacter = /[^\P{Cc}\t\n\r]/u;

/**
 * openapi.yaml's `plainTextPattern`, the same class written for every JSON Schema reader (ECMA-262 without flags,
 * which not every generator's regex dialect reads as `\p{Cc}`); test/contract/control-characters.test.ts holds the
 * two together, code point by code point.
 */
export const plainTextPattern = String.raw`^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$`;

const textControlCharacters = new RegExp(textControlCharacter.source, 'gu');

/**
 * `text` with each control character a text may not hold written as `\uXXXX`: a client's own key named back to it
 * (a batch's 400 names an unknown field) as text the contract's pattern allows.
 */
export function withControlsEscaped(text: string): string {
  return text.replace(textControlCharacters, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
