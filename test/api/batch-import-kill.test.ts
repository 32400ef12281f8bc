// kill -9 of the instance in the middle of a batch: after a restart, either all of the batch and its history is
// there or none of it (PostgreSQL: one transaction, which the server rolls back when its session dies).
import { expect } from 'chai';
import { backend } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting, unique } from '../support/fixtures.ts';
import { eventually } from '../support/condition.ts';
import { query } from '../support/sql.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { listening, spawnService, type ServiceProcess } from '../support/service-process.ts';

const records = 50_000;

describe('a batch import cut by kill -9', function () {
  this.timeout(300_000);
  let scratch: ScratchDatabase | undefined;
  let service: ServiceProcess | undefined;
  before(function () {
    if (backend !== 'postgresql') this.skip();
  });
  after(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    await scratch?.drop();
  });

  const start = async () => {
    service = spawnService({ LOG_LEVEL: 'info', DEMO_DATA: 'true', ...scratch!.env,
      ...(process.env.KEYCLOAK_URL && { KEYCLOAK_URL: process.env.KEYCLOAK_URL }) });
    return listening(service);
  };

  it(`when the instance is killed during a batch of ${records} sightings, then after a restart either every ` +
    'record of it and its created entry is there, or none is', async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    const { url, api } = await start();
    const realm = process.env.KEYCLOAK_URL ? `${process.env.KEYCLOAK_URL}/realms/sighting` : `${url}/realms/sighting`;
    const memo = unique('killed');
    const line = () => JSON.stringify(buildSighting({ sightingMemo: memo }));
    const body = Array.from({ length: records }, line).join('\n');
    const sent = fetch(`${api}/sighting/batch`, { method: 'POST', body, headers: {
      Authorization: `Bearer ${await tokenFor(realm, 'alice')}`, 'Content-Type': 'application/x-ndjson' } })
      .then((response) => response.status, () => 'cut');
    // The batch's transaction is open on the server: its COPY or one of its inserts runs, or has run.
    const inBatch = `select pid from pg_stat_activity where datname = current_database() and xact_start is not null `
      + `and (query like 'copy "batch_rows"%' or query like 'insert into "sighting"%' `
      + `or query like 'insert into "record_change"%')`;
    await eventually(async () => (await query(scratch!.url, inBatch)).length > 0,
      { within: 120_000, what: 'the batch\'s transaction open' });
    service!.child.kill('SIGKILL');
    await service!.exited;
    expect(await sent).to.equal('cut');
    // The server ends the dead instance's session (its socket closed) and rolls its transaction back.
    await eventually(async () => (await query(scratch!.url, inBatch)).length === 0,
      { within: 60_000, what: 'the dead session gone' });
    await start();
    const [{ stored, entries }] = await query<{ stored: string; entries: string }>(scratch.url,
      `select count(*) as "stored", (select count(*) from "record_change" as "c" join "sighting" as "s" on `
      + `"c"."record_id" = "s"."sighting_id" and "c"."collection" = 'sighting' where "s"."sighting_memo" = $1) `
      + `as "entries" from "sighting" where "sighting_memo" = $1`, [memo]) as [{ stored: string; entries: string }];
    expect([0, records]).to.include(Number(stored));
    expect(Number(entries)).to.equal(Number(stored));
  });
});
