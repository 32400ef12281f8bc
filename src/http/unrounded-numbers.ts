// A JSON.parse reviver that keeps a number's text when parsing would silently round it to another whole number.
const decimal = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * No id is ever rounded (docs/behaviour.md#ids): `-1.0000000000000001` parses to −1, so a whole-number value whose text
 * says otherwise stays as that text, which the schema then refuses. Values beyond ±(2^53−1) fail the schema anyway.
 */
export function unrounded(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (!Number.isSafeInteger(value) || !context?.source) return value;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = decimal.exec(context.source) ?? [];
  const digits = `${whole}${fraction}`.replace(/0+$/, '');
  const scale = Number(exponent) - fraction.length + (`${whole}${fraction}`.length - digits.length);
  const exact = digits === '' || (scale >= 0 && scale < 400
    && BigInt(`${sign}${digits}`) * 10n ** BigInt(scale) === BigInt(value as number));
  return exact ? value : context.source;
}

/**
 * Only a number's text with an exponent, or with 16 digits and more, can parse to a whole number it does not say:
 * fewer digits without an exponent parse exactly to any whole number they are near. The reviver, which makes
 * JSON.parse several times slower, runs only for a text that has such a number (or a string that looks like one).
 */
const mayRound = /\d[eE]|\d(?:\.?\d){15}/;

/** JSON.parse with `unrounded`, which it needs only where a number could round. */
export function parseUnrounded(text: string): unknown {
  return JSON.parse(text, mayRound.test(text) ? unrounded as never : undefined);
}
