// On PostgreSQL a whole list's CSV is written by the database (`COPY … TO STDOUT`, src/crud/read/copied-export.ts):
// byte for byte the CSV the service writes itself from the same rows (src/http/csv-representation.ts), in every view,
// order and language, for texts that must be quoted, guarded against formulas, or left empty. On PGlite the service
// writes it; the test holds it to the JSON list's rows all the same.
import { expect } from 'chai';
import { backend, sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import { csvLine } from '../../src/http/csv-representation.ts';

/** Texts each of which the CSV writes its own way: quoted, doubled, guarded, empty, in several UTF-8 bytes. */
const texts = ['plain', 'a, comma', 'a "quote"', 'two\nlines', 'cr\r\nlf', '=1+2', '+49 30', '-minus', '@at',
  '\ttab', '\'=guarded once', '', 'Grüße 🚀', '\\.', 'trailing space ', '?asked', 'Äpfel', '~tilde', 'O\'Brien\'s \\n',
  '50% off_x'];

describe(`a whole list's CSV written by the database (${backend}) @pgbouncer`, () => {
  let service: TestService;
  const word = unique('bydb').replace(/\W/g, '');
  let vesselIds: number[];
  before(async () => {
    service = await sharedService();
    vesselIds = [];
    for (const [index, text] of texts.entries()) {
      // A name is never empty: empty cells are the null time zones' and dates' below; a fixed offset is guarded.
      vesselIds.push(await createVessel(service,
        { vesselName: { en: text || 'none', de: `${word} ${index} ${text}` } }));
    }
    for (const [index, text] of texts.entries()) {
      await createSighting(service, buildSighting({ vessel: { vesselId: vesselIds[index]! },
        sightingMemo: `${word} ${text}`, sightingTimezone: [undefined, 'Asia/Tokyo', '-05:00'][index % 3],
        sightingDate: index % 5 === 4 ? null : `2026-0${1 + index % 9}-1${index % 10}T0${index % 10}:30:0${
          index % 10}.${String(index * 7).padStart(3, '0')}`,
      }));
    }
  });

  const get = (path: string, accept: string, language: string, body?: unknown) =>
    rawRequest(service, body === undefined ? 'GET' : 'POST', path, { headers: { Accept: accept,
      'Accept-Language': language, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body) });

  /** The CSV the service writes itself for the JSON list's rows: each header column a path, every text guarded. */
  function writtenByService(header: string, rows: unknown[]): string {
    const columns = header.split(',').map((name) => ({ name, path: name.split('.'), text: true }));
    return `${header}\r\n${rows.map((row) => csvLine(row, columns)).join('')}`;
  }

  const example = () => ({ sightingMemo: word });
  const lists: Array<[string, string, (() => unknown)?]> = [
    ['/sighting/qbe/list-view', 'en', example],
    ['/sighting/qbe/list-view?sort=-sightingDate', 'de', example],
    ['/sighting/qbe/list-view?vesselNameOrder=desc&sort=sightingDate', 'de', example],
    ['/sighting/qbe?sort=sightingTimezone', 'en', example],
    ['/sighting/qbe', 'de', example],
    ['/sighting', 'de'],
    ['/sighting/detail-view?sort=-sightingDate', 'en'],
    ['/vessel', 'en'],
    ['/vessel?sort=-vesselId', 'de'],
    ['/timezone', 'en'],
  ];
  for (const [path, language, example] of lists) {
    it(`when ${example ? 'POST' : 'GET'} ${path} in ${language} is asked as CSV, then it is the JSON list's rows ` +
      'as the service writes CSV, byte for byte', async () => {
      const [csv, json] = await Promise.all([get(path, 'text/csv', language, example?.()),
        get(path, 'application/json', language, example?.())]);
      expect(csv.status, await csv.clone().text()).to.equal(200);
      const text = await csv.text();
      const rows = await json.json() as unknown[];
      expect(rows.length, 'rows of the list').to.be.at.least(texts.length);
      expect(text).to.equal(writtenByService(text.slice(0, text.indexOf('\r\n')), rows));
    });
  }

  it('when lists of one shape are asked as CSV one after the other with other values, each a text of its own ' +
    '(quotes, backslashes, wildcards), then each is its own rows, as JSON answers them', async () => {
    // A shape's select is built once and takes each request's values written in (src/crud/read/statement-shapes.ts).
    const lists: Array<[string, unknown?]> = [
      ...vesselIds.slice(0, 4).map((id): [string] => [`/sighting?vesselId=${id}`]),
      ...texts.map((text): [string, unknown] => ['/sighting/qbe', { sightingMemo: `${word} ${text}` }]),
    ];
    for (const [path, example] of lists) {
      const [csv, json] = await Promise.all([get(path, 'text/csv', 'en', example), get(path, 'application/json', 'en',
        example)]);
      const text = await csv.text();
      expect(csv.status, `${path} ${JSON.stringify(example)}: ${text}`).to.equal(200);
      const rows = await json.json() as unknown[];
      expect(rows, `${path} ${JSON.stringify(example)}`).to.have.length.at.least(1);
      expect(text, `${path} ${JSON.stringify(example)}`)
        .to.equal(writtenByService(text.slice(0, text.indexOf('\r\n')), rows));
    }
  });
});
