// Every text parsed from openapi.yaml is a one-byte string to V8. A text with one character beyond Latin-1 (an
// ellipsis, a dash) is read as a two-byte string, and the YAML parser's slices of it longer than 12 characters stay
// two-byte: a field name (`sightingTimezone`), a header (`Cache-Control`, `RateLimit-Policy`) or a media type the code
// names after the contract was parsed is that two-byte string (V8 keeps one internalized copy of each text), and so is
// every header block or text built with it: twice the bytes held and written (measured: a change-feed stream's
// headers, 760 bytes instead of 384).
import v8 from 'node:v8';
import { expect } from 'chai';
import { openApiDocument, openApiText } from '../../src/contract/document.ts';

/** V8's serializer tags a one-byte string `"` and a two-byte one `c`. */
const isOneByte = (text: string) => v8.serialize(text)[2] === '"'.charCodeAt(0);

function* textsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      yield key;
      yield* textsOf(inner);
    }
  }
}

describe('openapi.yaml as V8 reads it', () => {
  it('when it is read, then it holds no character beyond Latin-1 (write "..." and "-", not "…" and "–")', () => {
    expect([...new Set([...openApiText].filter((character) => character.codePointAt(0)! > 0xff))]).to.deep.equal([]);
  });

  it('when it is parsed, then every name and text in it is a one-byte string', () => {
    const texts = [...textsOf(openApiDocument)];
    expect(texts.length).to.be.above(1000);
    expect(texts.filter((text) => !isOneByte(text)).map((text) => text.slice(0, 60))).to.deep.equal([]);
    // The check can tell: a text with a character beyond Latin-1 is two-byte.
    expect(isOneByte('sighting…')).to.equal(false);
  });
});
