// A batch's records held as texts, a thousand to a block: each reads back as it was sent, wherever its block ends, also
// once others of its block are dropped.
import { expect } from 'chai';
import { BatchRecordTexts, recordsPerBlock } from '../../src/http/batch-record-texts.ts';

const count = 2 * recordsPerBlock + 500;
const record = (index: number) => ({ index, text: `Grüße ${'🚀'.repeat(index % 3)} "${index}" \\`, nested: [index] });

describe('batch record texts', () => {
  it(`when ${count} records are held, then each reads back as sent, and as JSON, in every block`, () => {
    const texts = new BatchRecordTexts();
    for (let index = 0; index < count; index += 1) texts.add(record(index));
    expect(texts.length).to.equal(count);
    for (let index = 0; index < count; index += 1) {
      expect(texts.at(index), String(index)).to.deep.equal(record(index));
      expect(texts.json(index), String(index)).to.equal(JSON.stringify(record(index)));
    }
    expect(texts.at(count)).to.equal(undefined);
  });

  it('when records are dropped, then only they read as undefined; the others of their block stay', () => {
    const texts = new BatchRecordTexts();
    for (let index = 0; index < count; index += 1) texts.add(record(index));
    for (let index = 0; index < recordsPerBlock; index += 1) texts.drop(index);
    texts.drop(recordsPerBlock + 1);
    texts.drop(count - 1);
    const kept = Array.from({ length: count }, (_, index) => texts.at(index) !== undefined);
    expect(kept.filter((one) => !one)).to.have.length(recordsPerBlock + 2);
    expect([kept[recordsPerBlock - 1], kept[recordsPerBlock], kept[recordsPerBlock + 1], kept[count - 2],
      kept[count - 1]]).to.deep.equal([false, true, false, true, false]);
    expect(texts.at(recordsPerBlock + 2)).to.deep.equal(record(recordsPerBlock + 2));
  });

  it('when CSV rows are held and read through a view, then each is its record by the header, viewed; its JSON as ' +
    'sent', () => {
    const texts = new BatchRecordTexts((row) => ({ ...row, read: true }));
    for (let index = 0; index < count; index += 1) texts.addRow({ a: String(index), 'b.c': `"${index}",\n` });
    texts.readThrough((value) => ({ ...value as object, viewed: true }));
    const last = count - 1;
    expect(texts.at(last)).to.deep.equal({ a: String(last), 'b.c': `"${last}",\n`, read: true, viewed: true });
    expect(texts.json(recordsPerBlock)).to.equal(JSON.stringify({ a: String(recordsPerBlock),
      'b.c': `"${recordsPerBlock}",\n`, read: true }));
  });
});
