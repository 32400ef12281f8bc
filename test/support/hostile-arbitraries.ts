// fast-check arbitraries for what a hostile client sends: values deep, wide, long, oddly encoded, at the limits.
import fc from 'fast-check';

/** Names that are Object.prototype members, and others a careless map lookup trips over. */
export const prototypeNames = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf',
  'prototype', '__defineGetter__'];

/** Numbers where types, columns and JSON part ways. */
export const limitNumbers = [0, -0, 1, -1, 0.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53),
  2 ** 63, 1e308, -1e308, 5e-324];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const control = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));
const special = fc.constantFrom('\ufeff', '\u0000', '\u2028', '\u202e', '%', '_', '\\', '"', '<', '&', '&nbsp;', ']]>',
  '😀', '\u{10ffff}');

/** Texts: any code point, lone surrogates, controls, markup and escape characters; now and then thousands long. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.array(fc.oneof(special, loneSurrogate, control, fc.string({ maxLength: 3 })),
    { maxLength: 12 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x', 'é', '😀', '\ud800', '%'), fc.integer({ min: 256, max: 20_000 }))
    .map(([unit, count]) => unit.repeat(count)) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '2026-02-30T10:00', '0000-01-01T00:00', '9999-12-31T23:59:59.999',
    'Europe/Berlin', '+02:00', '-0', '1e3', 'null', 'true') },
  { weight: 1, arbitrary: fc.constantFrom(...prototypeNames) },
);

/** A member name: ordinary, prototype-named, or hostile text. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('sightingMemo', 'vessel', 'vesselId', 'vesselName', 'sightingTimezone', 'sightingDate',
    'timezoneName', 'version', 'en', 'pt_BR', 'de'),
  fc.constantFrom(...prototypeNames),
  hostileText.map((text) => text.slice(0, 60)),
);

const number: fc.Arbitrary<number> =
  fc.oneof(fc.constantFrom(...limitNumbers), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** JSON values a few levels deep, with prototype-named keys; `wide` objects and arrays now and then. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), number, hostileText,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** JSON text nested `depth` levels of objects or arrays, with a leaf or broken off. */
export const deepJson: fc.Arbitrary<string> = fc.record({
  depth: fc.oneof(fc.integer({ min: 28, max: 40 }), fc.integer({ min: 1000, max: 30_000 })),
  arrays: fc.boolean(),
  closed: fc.boolean(),
  field: fc.constantFrom('vessel', 'vesselName', 'sightingMemo', '__proto__'),
}).map(({ depth, arrays, closed, field }) => {
  const levels = arrays ? Math.min(depth, 30_000) : Math.min(depth, 9_000);
  const [open, close] = arrays ? ['[', ']'] : ['{"a":', '}'];
  return `{"${field}":${open.repeat(levels)}1${closed ? close.repeat(levels) : ''}}`;
});

/** XML nested `depth` elements. */
export const deepXml: fc.Arbitrary<(root: string) => string> = fc.integer({ min: 28, max: 8_000 })
  .map((depth) => (root: string) => `<${root}>${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}</${root}>`);

/** Bytes that are not UTF-8, or are but as UTF-16. */
export const foreignBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(Uint8Array.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), Uint8Array.from([0xc0, 0x80]),
    Uint8Array.from([0xed, 0xa0, 0x80])),
);

/**
 * A header value fetch lets through (it refuses some non-ASCII ones itself): printable ASCII, junk and near-valid
 * forms.
 */
export const hostileHeader: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 }),
  fc.constantFrom('*', '"0"', '"0", *', 'W/"0"', '"1', '""', ',', 'return=representation',
    'return=minimal; count=exact', 'de;q=0', 'xx;q=abc',
    'application/json; charset=utf-16', 'x'.repeat(3000)),
);

/**
 * A query value: hostile text or a number's spelling, now and then thousands of characters long: percent-encoded
 * (9 bytes a character at most), a request line beyond HEADER_LIMIT is the contract's 431 (HeadersTooLarge).
 */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(hostileText,
  fc.constantFrom('0', '-0', '1e3', '0x10', '1.0', '+5', 'NaN', 'Infinity', '9'.repeat(30), '-9007199254740992',
    'true', 'list', 'detail'));

/**
 * A path segment that names no record of anyone's: never a plain whole number (which might be a record another test
 * reads).
 */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  hostileText.map((text) => encodeURIComponent(text.toWellFormed().slice(0, 200))),
  fc.constantFrom('%E0%A4%A', '%00', '..%2F..', '1e3', '0x10', '1.0', '-0', '+1', '9'.repeat(30), '__proto__',
    'constructor', '%ED%A0%80'),
).filter((segment) => segment !== '' && !/^-?\d{1,15}$/.test(segment) && segment !== '.' && segment !== '..');
