// The page's own RFC 4180 reader (web/src/csv-reader.ts), which previews a file before it is imported, reads back
// whatever csv-stringify (the service's CSV writer) writes: quoted commas, doubled quotes and line ends included.
import { expect } from 'chai';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { readCsv } from '../../web/src/csv-reader.ts';

describe('web page: the CSV reader of the import preview', () => {
  const field = fc.oneof(fc.string(), fc.constantFrom('', ',', '"', '""', '\r\n', '\n', 'a,"b"\r\nc', ' x '));

  it('when any rows are written as RFC 4180 CSV (CRLF or LF, with or without a final line end or BOM), ' +
    'then the reader gives the same rows', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }).chain((width) =>
      fc.array(fc.array(field, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 6 })),
    fc.constantFrom('\r\n', '\n'), fc.boolean(), fc.boolean(), (rows, end, finalEnd, bom) => {
      // Quoted: a lone empty field (else an empty line, which RFC 4180 cannot tell from no row), and any line end
      // (csv-stringify quotes only its own delimiter's).
      let text = stringify(rows, { record_delimiter: end === '\n' ? 'unix' : 'windows', quoted_match: /^$|[\r\n]/ });
      if (!finalEnd) text = text.slice(0, -end.length);
      expect(readCsv(bom ? `\uFEFF${text}` : text)).to.deep.equal({ rows });
    }), { seed: 58, numRuns: 500 });
  });

  it('when a quote is never closed, then the reader names the line it opened on', () => {
    expect(readCsv('sightingMemo,vessel.vesselId\r\nfine,-1\r\n"open,-1\r\nmore,-2\r\n').unclosedQuoteLine)
      .to.equal(3);
  });
});
