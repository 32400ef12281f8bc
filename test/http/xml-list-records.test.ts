// An XML batch body is cut into its records as its text arrives (src/http/xml/xml-list-records.ts): wherever the text
// is cut (inside a tag, a quoted attribute value, a comment, a CDATA section, an end tag), the records are the same
// texts, and what is refused is refused alike.
import { expect } from 'chai';
import { XmlListRecords } from '../../src/http/xml/xml-list-records.ts';
import { BadRequest, ValidationFailed } from '../../src/errors/app-errors.ts';
import { cuts } from '../support/text-cuts.ts';

function read(pieces: string[]): { root: string; records: string[] } {
  let root = '';
  const records: string[] = [];
  const reader = new XmlListRecords((startTag) => { root = startTag; }, (text, position) => {
    records[position - 1] = text;
  });
  for (const piece of pieces) reader.push(piece);
  expect(reader.finish()).to.equal(records.length);
  return { root, records };
}

const first = '<sighting a=\'x>"\' b="<\'/>"><memo><![CDATA[ <b> ]]> ]]&gt; &amp;</memo><!-- a > b --><e/></sighting>';
const second = '<sighting><?pi x > y?><vessel><vesselId>-1</vesselId></vessel></sighting>';
const document = `\ufeff<?xml version="1.0"?>\n<!-- head -->\n<collection xmlns:xsi="urn:x" n='1'>\n  ${first}`
  + `<!-- between --> <?pi between?>\n${second}<empty/>\n</collection >\n<!-- tail -->\n`;

describe('XML list records', () => {
  it('when a list document is cut anywhere, then each record is its own text, the root its start tag', () => {
    for (const pieces of cuts(document.slice(1), 5)) {
      expect(read(pieces), JSON.stringify(pieces)).to.deep.equal({
        root: '<collection xmlns:xsi="urn:x" n=\'1\'>', records: [first, second, '<empty/>'] });
    }
  });

  it('when the root is empty, then there is no record', () => {
    for (const pieces of cuts(' <collection/> ', 5)) expect(read(pieces).records).to.deep.equal([]);
  });

  const refused: Array<[string, string]> = [
    ['<!DOCTYPE c><collection/>', 'error.xmlForbidden'],
    ['<collection><a/><!ENTITY x "y"></collection>', 'error.xmlForbidden'],
    ['<collection><a><!ATTLIST a b CDATA #IMPLIED></a></collection>', 'error.xmlForbidden'],
    ['<collection><a/></collection><collection/>', 'error.malformedXml'],
    ['x<collection/>', 'error.malformedXml'],
    ['<collection><a/></wrong>', 'error.malformedXml'],
    ['<collection><a/>', 'error.malformedXml'],
    ['<collection><a/><!-- a -- b --></collection>', 'error.malformedXml'],
    ['</collection>', 'error.malformedXml'],
    ['<![CDATA[x]]><collection/>', 'error.malformedXml'],
    [`<collection><a>${'<b>'.repeat(31)}${'</b>'.repeat(31)}</a></collection>`, 'error.bodyTooDeep'],
  ];
  for (const [text, key] of refused) {
    it(`when the text is ${JSON.stringify(text.slice(0, 60))}, then it is refused (${key}) wherever it is cut`, () => {
      for (const pieces of cuts(text, 5)) {
        expect(() => read(pieces), JSON.stringify(pieces)).to.throw(BadRequest).with.property('key', key);
      }
    });
  }

  it('when the root holds text beside its records, then the root\'s field is named (mixed content)', () => {
    for (const text of ['<collection>x<a/></collection>', '<collection><a/><![CDATA[x]]></collection>',
      '<collection><a/>&amp;</collection>']) {
      for (const pieces of cuts(text, 5)) {
        expect(() => read(pieces), JSON.stringify(pieces)).to.throw(ValidationFailed)
          .with.property('problems').that.deep.equals([{ field: 'collection', key: 'error.xml.mixedContent' }]);
      }
    }
  });

  it('when nesting reaches the bound exactly, then the record is read', () => {
    // The root is one level, the record another: 30 more reach the bound of 32.
    const record = `<a>${'<b>'.repeat(30)}${'</b>'.repeat(30)}</a>`;
    expect(read([`<collection>${record}</collection>`]).records).to.deep.equal([record]);
  });
});
