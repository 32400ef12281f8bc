// Property names as XML element names and back: a character a name cannot hold is written `_xHHHH_`.
// (The convention of XmlConvert.EncodeName: `vesselName.pt-BR` stays as it is, `foo bar` is `foo_x0020_bar`.)

// XML 1.0 §2.3 NameStartChar and NameChar, written as the specification's ranges.
// eslint-disable-next-line no-misleading-character-class -- ranges of code points, not joined or combined text
const nameStart = new RegExp(String.raw`[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF` +
  String.raw`\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]`);
// eslint-disable-next-line no-misleading-character-class -- ranges of code points, not combined text
const nameChar = /[-.0-9\u00B7\u0300-\u036F\u203F\u2040]/;
const escapeLike = /^_x([0-9A-Fa-f]{4,6})?_/;

const hex = (char: string) => `_x${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}_`;

/**
 * XML 1.0 §2.3 names, without `:` (namespaces reserve it); `_` is escaped only where it would read as an escape; `''`
 * is `_x_`.
 */
export function toXmlName(name: string): string {
  if (name === '') return '_x_';
  // `_` alone would read as xml2js's text key.
  if (name === '_') return '_x005F_';
  let out = '';
  let index = 0;
  for (const char of name) {
    const allowed = char !== ':' && (nameStart.test(char) || (index > 0 && nameChar.test(char)));
    const readsAsEscape = char === '_' && escapeLike.test(name.slice(index, index + 9));
    out += allowed && !readsAsEscape ? char : hex(char);
    index += char.length;
  }
  return out;
}

export function fromXmlName(name: string): string {
  if (name === '_x_') return '';
  return name.replace(/_x([0-9A-Fa-f]{4,6})_/g, (_match, code: string) => String.fromCodePoint(parseInt(code, 16)));
}
