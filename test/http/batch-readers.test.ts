// A batch body's readers take its text in pieces as the socket hands them over: wherever the text is cut (inside a
// string, between an escape and its character, inside a number, a line end or a quoted CSV field), the records are
// the ones the whole text parses to, and a malformed text is refused alike.
import { expect } from 'chai';
import { JsonArrayElements } from '../../src/http/json-array-elements.ts';
import { JsonLineRecords } from '../../src/http/json-lines.ts';
import { CsvRows } from '../../src/http/csv-rows.ts';
import { BadRequest, BatchRejected } from '../../src/errors/app-errors.ts';
import { cuts } from '../support/text-cuts.ts';

const arrayText = ' [ {"a": "x\\"],{[y", "n": [1, {"b": null}], "e": "\\\\"}, 12345678901234567890, "s\\u00e9", {},'
  + '\n[] , -1.0000000000000001 ]\n';

function readArray(pieces: string[]): unknown[] {
  const values: unknown[] = [];
  const reader = new JsonArrayElements((value, position) => { values[position - 1] = value; });
  for (const piece of pieces) reader.push(piece);
  reader.finish();
  return values;
}

describe('batch body readers', () => {
  it('when a JSON array is cut anywhere, then its elements are those JSON.parse finds, exact numbers kept', () => {
    const whole = JSON.parse(arrayText) as unknown[];
    // As a whole body's parse keeps it (src/http/unrounded-numbers.ts): the text, not the −1 it would round to.
    whole[5] = '-1.0000000000000001';
    for (const pieces of cuts(arrayText, 7)) expect(readArray(pieces), JSON.stringify(pieces)).to.deep.equal(whole);
  });

  it('when a JSON array is empty, then it has no elements', () => {
    for (const pieces of cuts(' [ \n ] ', 7)) expect(readArray(pieces)).to.deep.equal([]);
  });

  for (const text of ['[1,,2]', '[1,]', '[1 2]', '[{"a":1}', '[1]]', '[1] x', '[{]', '[{"a": "b]', 'x[1]']) {
    it(`when the array text is ${JSON.stringify(text)}, then 400 malformed body wherever it is cut`, () => {
      for (const pieces of cuts(text, 7)) {
        expect(() => readArray(pieces), JSON.stringify(pieces)).to.throw(BadRequest)
          .with.property('key', 'error.malformedBody');
      }
    });
  }

  it('when elements nest deeper than the body may, then 400 bodyTooDeep', () => {
    expect(() => readArray([`[${'['.repeat(31)}${']'.repeat(31)}]`])).not.to.throw();
    expect(() => readArray([`[${'['.repeat(32)}`, `${']'.repeat(32)}]`])).to.throw(BadRequest)
      .with.property('key', 'error.bodyTooDeep');
  });

  it('when JSON lines are cut anywhere, then each line is its record and a bad line is named', () => {
    const text = '{"a":1}\r\n{"b":"x\\ny"}\n  {"c":[1]}  \n';
    for (const pieces of cuts(text, 7)) {
      const values: unknown[] = [];
      const reader = new JsonLineRecords((value, position) => { values[position - 1] = value; });
      for (const piece of pieces) reader.push(piece);
      reader.finish();
      expect(values).to.deep.equal([{ a: 1 }, { b: 'x\ny' }, { c: [1] }]);
    }
    const reader = new JsonLineRecords(() => undefined);
    const refused = (() => {
      try {
        reader.push('{"a":1}\n{"a":');
        reader.push('2}\n\n{"a":3}');
        reader.finish();
      } catch (error) {
        return error;
      }
    })();
    expect(refused).to.be.instanceOf(BatchRejected);
    expect((refused as BatchRejected).problems.map(({ record, key }) => ({ record, key })))
      .to.deep.equal([{ record: 3, key: 'error.malformedBody' }]);
  });

  it('when CSV is cut anywhere, then its rows are keyed by the header, quoted line ends and quotes kept', async () => {
    const text = '\uFEFFa,b\r\n"x, ""y""\r\nz",1\r\n\r\nplain,2\r\n';
    for (const pieces of cuts(text, 7)) {
      const rows: unknown[] = [];
      const reader = new CsvRows((row, position) => { rows[position - 1] = row; });
      for (const piece of pieces) reader.push(piece);
      await reader.finish();
      expect(rows, JSON.stringify(pieces)).to.deep.equal([{ a: 'x, "y"\r\nz', b: '1' }, { a: 'plain', b: '2' }]);
    }
  });

  it('when a CSV row has another number of fields, then 400 names its line', async () => {
    const reader = new CsvRows(() => undefined);
    reader.push('a,b\n1,2\n');
    reader.push('3\n4,5\n');
    const refused = await reader.finish().then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(BadRequest).with.deep.property('params', { line: 3 });
  });

  it('when a quote is left open in the first data row, then 400 names the line that row starts on, after the '
    + 'header\'s', async () => {
    for (const header of ['a,b\n', '"a\nb",c\n']) {
      const reader = new CsvRows(() => undefined);
      reader.push(`${header}"1,2\n3,4\n`);
      const refused = await reader.finish().then(() => undefined, (error: unknown) => error);
      expect(refused, header).to.be.instanceOf(BadRequest).with.deep.property('params',
        { line: header.split('\n').length });
    }
  });
});
