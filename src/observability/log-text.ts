// A client's text as a log line may carry it: a bounded prefix, every invisible or line-breaking character escaped.

/** How many characters of a client's text (a token's subject, say) a log line carries. */
export const LOG_TEXT_PREFIX = 64;

// Controls, format characters (bidirectional overrides, zero-width), line and paragraph separators, lone surrogates.
const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** The same characters, without `g`: a test that leaves no state behind. */
const anyInvisible = new RegExp(invisible.source, 'u');

const escaped = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The first `LOG_TEXT_PREFIX` characters, escaped as `\uXXXX`, and `…` when the text was longer. */
export function logText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  // The usual subject (a UUID) is short and plain: returned as it is, without splitting it into characters.
  if (text.length <= LOG_TEXT_PREFIX && !anyInvisible.test(text)) return text;
  const characters = Array.from(text);
  const prefix = characters.slice(0, LOG_TEXT_PREFIX).join('')
    .replace(invisible, (c) => c.split('').map(escaped).join(''));
  return characters.length > LOG_TEXT_PREFIX ? `${prefix}…` : prefix;
}
