// The list's XML writer against xml2js's builder (what lists were written with before): the same text for any row.
import { expect } from 'chai';
import { element } from '../../src/http/xml/xml-representation.ts';
import { xmlListItem } from '../../src/http/xml/xml-writer.ts';
import { pick, seededRandom, type Random } from '../support/seeded-random.ts';

const builderItem = (root: string, body: unknown) => element(root, body, false);

/** Text with what XML escapes, cannot carry, or carries only in pairs (surrogates), beside ordinary letters. */
const characters = ['a', 'Z', ' ', 'ä', 'ß', '&', '<', '>', '"', '\'', '\t', '\n', '\r', '\0',
  '\x0B', '\uFFFE', '\uFFFF',
  '\uD83D\uDE80', '\uD83D', '\uDE80', ']]>', '&amp;', '_x0020_', '\u00A0', '\u2028'];
const textOf = (next: Random) => Array.from({ length: Math.floor(next() * 6) }, () => pick(next, characters)).join('');
/** Property names a view has, and ones no schema names (escaped as element names). */
const keys = ['sightingId', 'sightingMemo', 'vessel', 'vesselName', 'vesselId', 'sightingDate', 'sightingTimezone',
  'version', 'a b', '1st', '_', '', '$', 'x:y', '__proto__', 'constructor', 'pt-BR', '_x0041_'];

function valueOf(next: Random, depth: number): unknown {
  const leaves = ['text', 'number', 'null', 'boolean'];
  const kind = pick(next, depth > 2 ? leaves : [...leaves, 'object', 'array', 'map']);
  switch (kind) {
    case 'text': return textOf(next);
    case 'number': return pick(next, [0, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER]);
    case 'null': return pick(next, [null, undefined]);
    case 'boolean': return next() < 0.5;
    case 'array': return Array.from({ length: Math.floor(next() * 4) }, () => valueOf(next, depth + 1));
    case 'map': return mapOf(next);
    default: return objectOf(next, depth + 1);
  }
}

/** A language map: tags (or any text) to texts, a null or two among them. */
const mapOf = (next: Random) => Object.fromEntries(Array.from({ length: Math.floor(next() * 4) },
  () => [pick(next, ['en', 'de', 'pt-BR', textOf(next)]), pick(next, [textOf(next), textOf(next), null])]));

function objectOf(next: Random, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  // Defined, not assigned: `__proto__` is an own key like any other, as it is in a parsed body.
  for (let i = Math.floor(next() * 6); i > 0; i--) {
    Object.defineProperty(object, pick(next, keys),
      { value: valueOf(next, depth), enumerable: true, configurable: true, writable: true });
  }
  return object;
}

describe('the XML list writer', () => {
  it('when it writes the views of sightings and vessels as the service makes them, ' +
    'then its text is the builder\'s', () => {
    const sighting = {
      sightingId: 7, vessel: { vesselId: -1, vesselName: 'Klingon <Warbird> & co' }, sightingTimezone: null,
      sightingDate: '2026-11-22T21:30:00.000', sightingMemo: 'line\r\nbreak "quoted" \u0001', version: 3,
    };
    const vessel =
      { version: 0, vesselId: -1, vesselName: { en: 'Klingon Warbird', de: 'Klingonischer Jäger', 'x"&<\t': '' } };
    for (const [root, body] of [['sighting', sighting], ['vessel', vessel], ['vessel', { vesselId: 1, vesselName: {} }],
      ['version', { version: 1, change: 'created', record: sighting }]] as const) {
      expect(xmlListItem(root, body)).to.equal(builderItem(root, body));
    }
  });

  it('when it writes 20,000 generated rows (escaping, nulls, language maps, arrays, odd names), ' +
    'then each is the builder\'s text', () => {
    for (let seed = 1; seed <= 20_000; seed++) {
      const next = seededRandom(seed);
      const root = pick(next, ['sighting', 'vessel', 'version', 'observers']);
      // Language maps where the contract has them, and anything anywhere else.
      const vessel = root === 'vessel' && next() < 0.5;
      const body = vessel ? { vesselId: seed, vesselName: next() < 0.8 ? mapOf(next) : valueOf(next, 0) }
        : objectOf(next, 0);
      const written = xmlListItem(root, body);
      expect(written, `seed ${seed}`).to.equal(builderItem(root, body));
    }
  });

  it('when a row is not an object (null, a text), then it is written as the builder writes it', () => {
    for (const body of [null, 'text', '', 5, []])
      expect(xmlListItem('sighting', body)).to.equal(builderItem('sighting', body));
  });
});
