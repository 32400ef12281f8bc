// The one definition of a control character: openapi.yaml's text pattern and the service's class say the same.
import { expect } from 'chai';
import { openApiDocument } from '../../src/contract/document.ts';
import { controlCharacter, plainTextPattern, textControlCharacter } from '../../src/validation/control-characters.ts';

const schemas = (openApiDocument as unknown as { components: { schemas: Record<string, { pattern?: string }> } })
  .components.schemas;

describe('control characters, defined once', () => {
  it("when openapi.yaml's plain-text pattern is read, then it is the service's own, as written", () => {
    for (const name of ['FilterText', 'SightingMemo', 'TimezoneName']) {
      expect(schemas[name]?.pattern, name).to.equal(plainTextPattern);
    }
  });

  it('when every code point is tried, then the pattern refuses exactly the Cc characters but tab, LF and CR', () => {
    // As ajv compiles a pattern (the `u` flag), the validator's reading of it.
    const pattern = new RegExp(plainTextPattern, 'u');
    const disagreeing: string[] = [];
    for (let point = 0; point <= 0x10FFFF; point += 1) {
      if (point >= 0xD800 && point <= 0xDFFF) continue;
      const text = String.fromCodePoint(point);
      if (pattern.test(text) === textControlCharacter.test(text)) disagreeing.push(point.toString(16));
    }
    expect(disagreeing).to.deep.equal([]);
  });

  it('when the classes are asked, then Cc is U+0000–U+001F and U+007F–U+009F, and a text allows tab, LF, CR', () => {
    const controls = [...Array(0x110).keys()].filter((point) => controlCharacter.test(String.fromCodePoint(point)));
    expect(controls).to.deep.equal([...Array(0x20).keys(), ...Array.from({ length: 0x21 }, (_, i) => 0x7F + i)]);
    expect(['\t', '\n', '\r'].filter((text) => textControlCharacter.test(text))).to.deep.equal([]);
    expect(['\u0085', '\u007F', '\u009B', '\u0000'].every((text) => textControlCharacter.test(text))).to.equal(true);
  });
});
