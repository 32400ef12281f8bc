// COPY's CSV (rows ended by LF) made the service's (CRLF), however its bytes are cut into pieces on the way.
import { expect } from 'chai';
import { stringify } from 'csv-stringify/sync';
import { CsvRecordEnds } from '../../src/http/csv-record-ends.ts';
import { csvOptions } from '../../src/http/csv-representation.ts';
import { dateAtRecordEnd } from '../../src/resources/sighting-fields.ts';
import { pick, seededRandom, type Random } from '../support/seeded-random.ts';

/** What RFC 4180 quotes or doubles, line breaks inside fields, and characters of several UTF-8 bytes. */
const characters = ['a', ' ', 'ä', '🚀', ',', '"', '""', '\r', '\n', '\r\n', '\'', '\\', '.'];
const textOf = (next: Random) => Array.from({ length: Math.floor(next() * 6) }, () => pick(next, characters)).join('');

/** The bytes cut at random places, a multi-byte character's middle included. */
function pieces(bytes: Buffer, next: Random): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(next() * 40);
    parts.push(bytes.subarray(at, at + size));
    at += size;
  }
  return parts;
}

describe('CSV record ends', () => {
  it('when 5,000 generated CSV texts with LF row ends arrive in random pieces, then the rewritten pieces are the ' +
    'same rows with CRLF ends and every line break inside a field kept', () => {
    for (let seed = 1; seed <= 5000; seed++) {
      const next = seededRandom(seed);
      const rows = Array.from({ length: 1 + Math.floor(next() * 6) },
        () => Array.from({ length: 1 + Math.floor(next() * 4) }, () => textOf(next)));
      const withLf = Buffer.from(stringify(rows, { ...csvOptions, record_delimiter: 'unix' }), 'utf8');
      const ends = new CsvRecordEnds();
      const rewritten = Buffer.concat(pieces(withLf, next).map((piece) => ends.rewrite(piece))).toString('utf8');
      expect(rewritten, `seed ${seed}`).to.equal(stringify(rows, csvOptions));
    }
  });

  it('when 5,000 generated CSV texts end each row with a date as PostgreSQL writes it for less (or none), in random ' +
    'pieces, then each date is as the contract writes it, and the rest as before', () => {
    const digits = (next: Random, count: number) => String(Math.floor(next() * 10 ** count)).padStart(count, '0');
    for (let seed = 1; seed <= 5000; seed++) {
      const next = seededRandom(seed);
      const rows = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
        const date = `${digits(next, 4)}-${digits(next, 2)}-${digits(next, 2)}`;
        const time = `${digits(next, 2)}:${digits(next, 2)}:${digits(next, 2)}.${digits(next, 3)}`;
        const cells = Array.from({ length: Math.floor(next() * 3) }, () => textOf(next));
        return next() < 0.2 ? { cells, written: '', wire: '' }
          : { cells, written: `${date} ${time}${digits(next, 1)}`, wire: `${date}T${time}` };
      });
      const written = Buffer.from(stringify(rows.map(({ cells, written: date }) => [...cells, date]),
        { ...csvOptions, record_delimiter: 'unix' }), 'utf8');
      const ends = new CsvRecordEnds(dateAtRecordEnd('"row"."sighting_date"'));
      const rewritten = Buffer.concat([...pieces(written, next).map((piece) => ends.rewrite(piece)), ends.rest()]);
      expect(rewritten.toString('utf8'), `seed ${seed}`)
        .to.equal(stringify(rows.map(({ cells, wire }) => [...cells, wire]), csvOptions));
    }
  });
});
