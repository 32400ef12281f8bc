// CSV formula cells (OWASP's CSV injection, docs/api.md#csv): an exported text that a spreadsheet would open as a
// formula starts with one `'` more, numbers and dates never; an import takes that one `'` off, so export → import →
// export gives the same text.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { backend, sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';

describe(`CSV formula cells (${backend})`, function () {
  let service: TestService;
  const word = unique('formula').replace(/\W/g, '');
  /** Each memo as stored, and its cell as exported. */
  const memos: Array<[string, string]> = [
    [`=1+2 ${word}`, `'=1+2 ${word}`], [`+x ${word}`, `'+x ${word}`], [`-x ${word}`, `'-x ${word}`],
    [`@x ${word}`, `'@x ${word}`], [`'=x ${word}`, `''=x ${word}`], [`''-x ${word}`, `'''-x ${word}`],
    [`\tx ${word}`, `'\tx ${word}`], [`\rx ${word}`, `'\rx ${word}`], [`x=1 ${word}`, `x=1 ${word}`],
    [`'x ${word}`, `'x ${word}`],
  ];
  before(async () => {
    service = await sharedService();
    for (const [sightingMemo] of memos) {
      await createSighting(service, buildSighting({ sightingMemo, sightingTimezone: '-05:00',
        sightingDate: '2026-05-03T10:00' }));
    }
  });

  const request = (method: string, path: string, user: User, headers: Record<string, string>, body?: string) =>
    rawRequest(service, method, path, { user, headers, body });

  /** The sightings whose memo holds `word`, as the export's text. */
  async function exported(): Promise<string> {
    const response = await request('POST', '/sighting/qbe', 'alice',
      { Accept: 'text/csv', 'Content-Type': 'application/json' }, JSON.stringify({ sightingMemo: word }));
    const text = await response.text();
    expect(response.status, text).to.equal(200);
    return text;
  }

  const rowsOf = (text: string) => parse(text, { columns: true }) as Array<Record<string, string>>;

  it('when texts that start with =, +, -, @, tab or CR are exported, then their cells start with one \' more, and ' +
    'the negative vessel id and the date are written as they are', async () => {
    const rows = rowsOf(await exported());
    expect(rows.map((row) => row.sightingMemo)).to.deep.equal(memos.map(([, cell]) => cell));
    for (const row of rows) {
      expect(row['vessel.vesselId']).to.equal('-1');
      expect(row.sightingTimezone).to.equal("'-05:00");
      expect(row.sightingDate).to.equal('2026-05-03T10:00:00.000');
    }
  });

  it('when the export is imported and exported again, then the new records hold the same texts and their rows the ' +
    'same cells', async () => {
    const first = await exported();
    const answer = await request('POST', '/sighting/batch', 'alice', { 'Content-Type': 'text/csv' }, first);
    const body = await answer.text();
    expect(answer.status, body).to.equal(201);
    const created = JSON.parse(body) as Array<{ sightingId: number }>;
    const imported = new Set(created.map((each) => String(each.sightingId)));
    expect(imported.size).to.equal(memos.length);
    // Every text as it was stored, not as the cell spelled it.
    for (const id of imported) {
      const read = await request('GET', `/sighting/${id}`, 'alice', { Accept: 'application/json' });
      const record = await read.json() as { sightingMemo: string; sightingTimezone: string };
      expect(memos.map(([memo]) => memo)).to.include(record.sightingMemo);
      expect(record.sightingTimezone).to.equal('-05:00');
    }
    const cells = (text: string, ids: (id: string) => boolean) => rowsOf(text).filter((row) => ids(row.sightingId!))
      .map(({ sightingId: _id, version: _version, ...rest }) => rest);
    const again = await exported();
    expect(cells(again, (id) => imported.has(id))).to.deep.equal(cells(first, () => true));
    expect(cells(again, (id) => !imported.has(id))).to.deep.equal(cells(first, () => true));
  });

  it('when a vessel\'s names start with a formula\'s character, then its CSV guards them in their language columns ' +
    'and an import reads them back exactly', async () => {
    const vesselName = { en: `@SUM(1) ${word}`, de: `'+x ${word}` };
    const vesselId = await createVessel(service, { vesselName });
    const response = await request('GET', `/vessel?vesselId=${vesselId}&view=detail`, 'admin',
      { Accept: 'text/csv' });
    const text = await response.text();
    expect(response.status, text).to.equal(200);
    const [row] = rowsOf(text).filter((each) => each.vesselId === String(vesselId));
    expect(row).to.deep.include({ 'vesselName.en': `'@SUM(1) ${word}`, 'vesselName.de': `''+x ${word}` });
    const answer = await request('POST', '/vessel/batch', 'admin', { 'Content-Type': 'text/csv' }, text);
    const body = await answer.text();
    expect(answer.status, body).to.equal(201);
    const [{ vesselId: copy }] = JSON.parse(body) as [{ vesselId: number }];
    const read = await request('GET', `/vessel/${copy}`, 'admin', { Accept: 'application/json' });
    expect((await read.json() as { vesselName: unknown }).vesselName).to.deep.equal(vesselName);
  });
});
