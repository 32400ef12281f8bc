// The export's CSV row writer against csv-stringify with the service's options: the same text for any row, the
// formula guard (a text cell's leading `'`) applied as the contract says before either writes it.
import { expect } from 'chai';
import { stringify } from 'csv-stringify/sync';
import { csvLine, csvOptions } from '../../src/http/csv-representation.ts';
import { formulaStart, type CsvColumn } from '../../src/http/csv-columns.ts';
import { pick, seededRandom, type Random } from '../support/seeded-random.ts';

/** What RFC 4180 quotes or doubles, what a spreadsheet reads as a formula, and ordinary letters. */
const characters = ['a', 'Z', ' ', 'ä', '🚀', ',', '"', '\'', '\r', '\n', '\r\n', '\t', '=', '+', '-', '@', ';', '\\'];
const textOf = (next: Random) => Array.from({ length: Math.floor(next() * 6) }, () => pick(next, characters)).join('');

function valueOf(next: Random): unknown {
  switch (pick(next, ['text', 'text', 'number', 'null', 'boolean', 'map'])) {
    case 'text': return textOf(next);
    case 'number': return pick(next, [0, -1, 1.5, -2147483648, 1e21, Number.MAX_SAFE_INTEGER]);
    case 'null': return pick(next, [null, undefined]);
    case 'boolean': return next() < 0.5;
    default: return { en: textOf(next), de: null };
  }
}

/** What the contract's export writes for a cell, by csv-stringify: a text column's formula guarded first. */
const guarded = (value: unknown, text: boolean) =>
  (text && typeof value === 'string' && formulaStart.test(value) ? `'${value}` : value ?? null);

describe('the CSV row writer', () => {
  it('when it writes 20,000 generated rows (quotes, line breaks, formulas, nulls, numbers, objects), ' +
    'then each line is csv-stringify\'s', () => {
    for (let seed = 1; seed <= 20_000; seed++) {
      const next = seededRandom(seed);
      const columns: CsvColumn[] = Array.from({ length: 1 + Math.floor(next() * 5) },
        (_, index) => ({ name: `c${index}`, path: [`c${index}`], text: next() < 0.7 }));
      const record = Object.fromEntries(columns.map(({ name }) => [name, valueOf(next)]));
      const expected = stringify([columns.map(({ name, text }) => guarded(record[name], text))], csvOptions);
      expect(csvLine(record, columns), `seed ${seed}`).to.equal(expected);
    }
  });

  it('when a row lacks a column or nests it (`vessel.vesselName`), then the cell is csv-stringify\'s', () => {
    const columns: CsvColumn[] = [{ name: 'vessel.vesselName', path: ['vessel', 'vesselName'], text: true },
      { name: 'gone', path: ['gone'], text: true }];
    expect(csvLine({ vessel: { vesselName: '=HYPERLINK("x")' } }, columns))
      .to.equal(stringify([['\'=HYPERLINK("x")', null]], csvOptions)).and.equal('"\'=HYPERLINK(""x"")",\r\n');
  });
});
