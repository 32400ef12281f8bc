// Dates as the contract writes them (`2026-11-22T21:30:00.000`) whatever DateStyle the database gives new sessions:
// each of the service's sessions sets its own (src/db/bounded-waits.ts), also through a transaction-mode pooler, which
// keeps DateStyle per client. The JSON list reads the dates' text; on PostgreSQL an export has the database write it,
// finished by the service (src/http/csv-record-ends.ts). PGlite's sessions are the service's alone: not tested there.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { query } from '../support/sql.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, unique } from '../support/fixtures.ts';
import { csvLine } from '../../src/http/csv-representation.ts';

describe('dates under another DateStyle (postgresql) @pgbouncer', () => {
  let scratch: ScratchDatabase | undefined;
  let service: TestService | undefined;
  const dates = ['2026-01-02T03:04:05.000', '2026-12-31T23:59:59.999', '0001-01-01T00:00:00.010', null,
    '9999-12-31T12:00:00.100'];

  before(async function () {
    if (backend !== 'postgresql') this.skip();
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    // Day first, no `T`, no ISO: every new session takes it. Set by the database's owner, where the run has one.
    await query(scratch.env.DATABASE_MIGRATION_URL ?? scratch.url,
      `alter database "${new URL(scratch.url).pathname.slice(1)}" set datestyle = 'SQL, DMY'`);
    service = await startService(scratch.env);
    const memo = unique('datestyle');
    for (const sightingDate of dates) {
      await createSighting(service, buildSighting({ sightingMemo: memo, sightingDate }));
    }
  });
  after(async () => {
    await service?.stop();
    await scratch?.drop();
  });

  it('when sightings with dates of every shape are listed as JSON and exported as CSV, then both hold each date as ' +
    'the contract writes it', async () => {
    const get = async (accept: string) => {
      const response = await rawRequest(service!, 'GET', '/sighting', { headers: { Accept: accept } });
      expect(response.status, accept).to.equal(200);
      return response;
    };
    const text = await (await get('text/csv')).text();
    const rows = await (await get('application/json')).json() as Array<{ sightingDate: string | null }>;
    expect(rows.map(({ sightingDate }) => sightingDate)).to.include.members(dates);
    const header = text.slice(0, text.indexOf('\r\n'));
    expect(header.split(',').at(-1), 'the date ends each record').to.equal('sightingDate');
    const columns = header.split(',').map((name) => ({ name, path: name.split('.'), text: true }));
    expect(text).to.equal(`${header}\r\n${rows.map((row) => csvLine(row, columns)).join('')}`);
  });
});
