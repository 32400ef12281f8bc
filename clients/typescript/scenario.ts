// The client scenario with the generated typescript-fetch SDK: every step against the running service, failing loudly.
// Usage (clients/consume.sh typescript installs the package and runs it):
// node scenario.js <api base URL> <token endpoint URL>
import { randomUUID } from 'node:crypto';
import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import {
  type ApiResponse, Configuration, GeneralErrorFromJSON, ResponseError, SightingApi, TimezoneApi, VesselApi,
  type SightingCreate, type SightingDetail, type SightingListItem, type VesselDetail, type VesselListItem,
} from 'sighting-client';

const [api, tokenUrl] = process.argv.slice(2);
if (!api || !tokenUrl) throw new Error('usage: scenario.js <api base URL> <token endpoint URL>');

/** Resource owner password grant with the public client sighting-cli, as the realm allows for scripts. */
async function token(user: string): Promise<string> {
  const response = await fetch(tokenUrl!, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'sighting-cli', username: user, password: user }),
  });
  const body = await response.json() as { access_token?: string };
  if (!body.access_token) throw new Error(`no token for ${user}: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** The typed error body of a failed call: the status and the `general` message, else the call's unexpected success. */
async function failure(call: Promise<unknown>): Promise<{ status: number; general: string }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ResponseError)) throw error;
    return { status: error.response.status, general: GeneralErrorFromJSON(await error.response.json()).general };
  }
  throw new Error('the call succeeded, an error was expected');
}

async function step(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const answer = error instanceof ResponseError
      ? `: HTTP ${error.response.status} ${await error.response.text().catch(() => '')}` : '';
    console.error(`  FAILED  ${name}${answer}`);
    throw error;
  }
  console.log(`  ok  ${name}`);
}

const configuration = new Configuration({ basePath: api, accessToken: await token('alice') });
const sightings = new SightingApi(configuration);
const vessels = new VesselApi(configuration);
const memo = `typescript-fetch scenario ${randomUUID()}`;
let created: SightingDetail;

await step('list rows in the list view: typed list items', async () => {
  const rows: VesselListItem[] = await vessels.listVessels();
  const ids = rows.map((v) => v.vesselId);
  ok(ids.includes(-1) && ids.includes(-2), `the demo vessels -1 and -2 are listed: ${ids}`);
  // The list view: the name in the request's locale as one text (the detail view has the language map).
  // (null for a vessel without names, which other clients may have made).
  ok(rows.every((v) => v.vesselName === null || typeof v.vesselName === 'string'), JSON.stringify(rows.slice(0, 2)));
  ok(rows.filter((v) => v.vesselId < 0).every((v) => typeof v.vesselName === 'string'),
    JSON.stringify(rows.slice(0, 2)));
  const [row] = await sightings.listSightings({ sightingId: -1 });
  const detail = await sightings.getSighting({ id: -1 });
  const { sightingId, vessel: { vesselId, vesselName }, sightingTimezone, sightingDate } = detail;
  deepStrictEqual(row,
    { sightingId, vessel: { vesselId, vesselName }, sightingTimezone, sightingDate } satisfies SightingListItem);
});
await step('list rows in the detail view: typed detail rows', async () => {
  const rows: VesselDetail[] = await vessels.listVesselsInDetailView({ vesselId: -1 });
  deepStrictEqual(rows, [await vessels.getVessel({ id: -1 })]);
  ok(Object.keys(rows[0]!.vesselName).length > 0, `the language map: ${JSON.stringify(rows)}`);
  const sightingRows: SightingDetail[] = await sightings.listSightingsInDetailView({ sightingId: -1 });
  deepStrictEqual(sightingRows.map((s) => [s.sightingId, s.sightingMemo]), [[-1, 'unheimlich!']]);
});
await step('a read with its ETag and API-Version headers', async () => {
  const answer = await sightings.getSightingRaw({ id: -1 });
  const sighting = await answer.value();
  deepStrictEqual({ id: sighting.sightingId, memo: sighting.sightingMemo, vessel: sighting.vessel.vesselId },
    { id: -1, memo: 'unheimlich!', vessel: -1 });
  strictEqual(answer.raw.headers.get('ETag'), `"${sighting.version}"`);
  ok(/^2\.\d+\.\d+$/.test(answer.raw.headers.get('API-Version') ?? ''),
    `API-Version 2.x.y, got ${answer.raw.headers.get('API-Version')}`);
});
await step('the default create: no throw, the new record\'s Location', async () => {
  const sightingCreate = { sightingMemo: memo, vessel: { vesselId: -1 }, sightingTimezone: 'Europe/Berlin',
    sightingDate: '2026-11-22T21:30' };
  // The plain call returns normally (the 201 declares no body): the record is stored once, nothing to retry.
  strictEqual(await sightings.createSighting({ sightingCreate: { ...sightingCreate,
    sightingMemo: `${memo} (plain)` } }), undefined);
  const answer = await sightings.createSightingRaw({ sightingCreate });
  const location = answer.raw.headers.get('Location') ?? '';
  const id = Number(location.slice(location.lastIndexOf('/') + 1));
  deepStrictEqual([answer.raw.status, await answer.raw.text(), answer.raw.headers.get('ETag')], [201, '', '"0"']);
  ok(id > 0, `a new positive id in Location, got ${location}`);
  created = await sightings.getSighting({ id });
  deepStrictEqual([created.sightingId, created.version, created.sightingMemo, created.sightingDate],
    [id, 0, memo, '2026-11-22T21:30:00.000']);
});
await step('create returning the record: the typed detail view', async () => {
  const answer: SightingDetail = await sightings.createSightingReturningRecord({
    sightingCreate: { sightingMemo: `${memo} (represented)`, vessel: { vesselId: -1 } },
  });
  deepStrictEqual([answer.version, answer.sightingMemo, answer.vessel.vesselId], [0, `${memo} (represented)`, -1]);
  deepStrictEqual(await sightings.getSighting({ id: answer.sightingId }), answer);
});
await step('batch create: the new ids in input order, each read back', async () => {
  // The default call sends the records as a JSON array and returns the new ids and versions in input order.
  const stored = await sightings.createSightingBatch({ requestBody: [
    { sightingMemo: `${memo} (batch 1)`, vessel: { vesselId: -1 } },
    { sightingMemo: `${memo} (batch 2)`, vessel: { vesselId: -2 }, sightingTimezone: 'Europe/Berlin' },
  ] satisfies SightingCreate[] });
  deepStrictEqual(stored.map((one) => one.version), [0, 0]);
  ok(stored[1]!.sightingId > stored[0]!.sightingId, `ids in input order: ${JSON.stringify(stored)}`);
  const readBack = await Promise.all(stored.map(({ sightingId }) => sightings.getSighting({ id: sightingId })));
  deepStrictEqual(readBack.map((r) => [r.sightingMemo, r.vessel.vesselId, r.sightingTimezone]),
    [[`${memo} (batch 1)`, -1, null], [`${memo} (batch 2)`, -2, 'Europe/Berlin']]);
});
await step('paging: by id after the last row, and sorted by the Link header\'s cursor', async () => {
  // recipe: paging
  const seen: number[] = [];
  let page = await sightings.listSightings({ limit: 100 });
  while (page.length > 0) {
    seen.push(...page.map((row) => row.sightingId));
    page = await sightings.listSightings({ limit: 100, after: page.at(-1)!.sightingId });
  }
  const first = await sightings.listSightingsRaw({ limit: 100, sort: '-sightingDate' });
  const next = first.raw.headers.get('Link')?.match(/<([^>]+)>; rel="next"/)?.[1];
  const cursor = next && new URL(next, 'http://x').searchParams.get('cursor');
  // end recipe
  ok(seen.every((id, i) => i === 0 || id > seen[i - 1]!) && seen.includes(created.sightingId),
    `ids ascending, with ${created.sightingId}: ${seen.length} rows`);
  if (cursor) ok((await sightings.listSightings({ limit: 100, sort: '-sightingDate', cursor })).length > 0);
});
await step('read it back', async () => {
  deepStrictEqual(await sightings.getSighting({ id: created.sightingId }), created);
});
await step('update with the version read', async () => {
  await sightings.updateSighting({ id: created.sightingId,
    sightingUpdate: { ...update(created), sightingMemo: `${memo} (updated)` } });
  const read = await sightings.getSighting({ id: created.sightingId });
  deepStrictEqual([read.version, read.sightingMemo], [1, `${memo} (updated)`]);
});
await step('a stale update is a 409, a typed error', async () => {
  const error = await failure(sightings.updateSighting({ id: created.sightingId, sightingUpdate: update(created) }));
  strictEqual(error.status, 409);
  ok(error.general.length > 0, 'the error says why');
});
await step('patch the memo (JSON Merge Patch) with If-Match: the other fields stay', async () => {
  const patched = await sightings.patchSighting({
    id: created.sightingId, ifMatch: '"1"', prefer: 'return=representation',
    sightingPatch: { sightingMemo: `${memo} (patched)` },
  });
  deepStrictEqual([patched?.version, patched?.sightingMemo, patched?.vessel.vesselId], [2, `${memo} (patched)`, -1]);
});
await step('a patch on a stale If-Match is a 412, a typed error', async () => {
  const error = await failure(sightings.patchSighting({
    id: created.sightingId, ifMatch: '"0"', sightingPatch: { sightingMemo: `${memo} (stale)` },
  }));
  strictEqual(error.status, 412);
  ok(error.general.length > 0, 'the error says why');
});
await step('the history lists every version, newest first, each record as it was', async () => {
  const versions = await sightings.listSightingVersions({ id: created.sightingId });
  deepStrictEqual(versions.map((v) => [v.version, v.change]), [[2, 'updated'], [1, 'updated'], [0, 'created']]);
  strictEqual(versions[2]?.record?.sightingMemo, memo);
});
await step('one version: the history filtered by version (the successor of the deprecated getSightingVersion)',
  async () => {
  const versions = await sightings.listSightingVersions({ id: created.sightingId, version: 1 });
  deepStrictEqual(versions.map((v) => [v.version, v.change, v.record?.sightingMemo]),
    [[1, 'updated', `${memo} (updated)`]]);
});
await step('a deprecated call: its Deprecation header', async () => {
  // The compiler marks the call deprecated (test/clients/sdk-deprecations.test.ts); at run time the answer's headers
  // say it.
  const answer = await sightings.getSightingVersionRaw({ id: created.sightingId, version: 1 });
  const [deprecation, sunset, link] =
    ['Deprecation', 'Sunset', 'Link'].map((name) => answer.raw.headers.get(name) ?? '');
  ok(/^@\d+$/.test(deprecation!), `Deprecation: @<unix seconds> (RFC 9745), got ${deprecation}`);
  ok(!Number.isNaN(Date.parse(sunset!)), `Sunset: an HTTP date (RFC 8594), got ${sunset}`);
  ok(/^<\/changelog\.md#contract-[\d.]+>; rel="deprecation"/.test(link!),
    `Link to the changelog entry, rel="deprecation", got ${link}`);
  strictEqual((await answer.value()).sightingMemo, `${memo} (updated)`);
});
await step('a sorted list: the newest ids first', async () => {
  const ids = (await sightings.listSightings({ sort: '-sightingId', limit: 3 })).map((s) => s.sightingId);
  deepStrictEqual(ids, [...ids].sort((a, b) => b - a));
  ok(ids[0]! >= created.sightingId, `the newest first, got ${ids}`);
});
await step('query by example: the memo, in the detail view and in the list view', async () => {
  const sightingExample = { sightingMemo: `${memo} (patched)`.toUpperCase() };
  const found: SightingDetail[] | null | undefined = await sightings.querySightingsByExample({ sightingExample });
  deepStrictEqual(found?.map((s) => [s.sightingId, s.sightingMemo]), [[created.sightingId, `${memo} (patched)`]]);
  const rows: SightingListItem[] | null | undefined =
    await sightings.querySightingsByExampleInListView({ sightingExample });
  deepStrictEqual(rows, await sightings.listSightings({ sightingId: created.sightingId }));
});
await step('query by example: a vessel name by language, {de: "Jäger"}', async () => {
  const found = await vessels.queryVesselsByExample({ vesselExample: { vesselName: { de: 'Jäger' } } });
  const ids = found?.map((v) => v.vesselId) ?? [];
  ok(ids.includes(-1) && !ids.includes(-2), `vessel -1 only of the demo vessels, got ${ids}`);
  ok(found!.every((v) => v.vesselName['de']?.toLowerCase().includes('jäger')),
    'every match has Jäger in its German name');
});
await step('query by example: no match is a 204', async () => {
  const response = await sightings.querySightingsByExampleRaw({ sightingExample: { sightingMemo: randomUUID() } });
  strictEqual(response.raw.status, 204);
});
await step('the change feed of each collection: a created event from the generated call', async () => {
  // Timezones and vessels are created by role admin.
  const admin = new Configuration({ basePath: api, accessToken: await token('admin') });
  const [adminTimezones, adminVessels] = [new TimezoneApi(admin), new VesselApi(admin)];
  const feeds = [
    [(init: RequestInit) => adminTimezones.timezoneEventsRaw({}, init), async () => (await adminTimezones
      .createTimezoneReturningRecord({ timezoneCreate: { timezoneName: `Scenario/${randomUUID()}` } })).timezoneId],
    [(init: RequestInit) => adminVessels.vesselEventsRaw({}, init), async () => (await adminVessels
      .createVesselReturningRecord({ vesselCreate: { vesselName: { en: `scenario ${randomUUID()}` } } })).vesselId],
    [(init: RequestInit) => sightings.sightingEventsRaw({}, init), async () =>
      (await sightings.createSightingReturningRecord(
        { sightingCreate: { sightingMemo: `${memo} (feed)`, vessel: { vesselId: -1 } } })).sightingId],
  ] as const;
  for (const [open, create] of feeds) {
    const { id, event } = await createdEvent(open, create);
    strictEqual(event, 'created', `the created event of ${id}`);
  }
});
await step('delete', async () => {
  const response = await sightings.deleteSightingRaw({ id: created.sightingId });
  strictEqual(response.raw.status, 204);
});
await step('read after delete is a 404, a typed error', async () => {
  const error = await failure(sightings.getSighting({ id: created.sightingId }));
  strictEqual(error.status, 404);
  ok(error.general.length > 0, 'the error says why');
});

/**
 * Opens a change feed by its generated raw call (`…EventsRaw`, whose `raw` is the fetch Response, its body the stream;
 * the plain `…Events()` would wait for the whole body as one JSON value, and a feed's body never ends), creates a
 * record, and reads events until the one about it; then leaves the stream.
 */
async function createdEvent(open: (init: RequestInit) => Promise<ApiResponse<unknown>>,
  create: () => Promise<number>): Promise<{ id: number; event: string }> {
  const { raw } = await open({ signal: AbortSignal.timeout(60_000) });
  ok(raw.headers.get('Content-Type')?.startsWith('text/event-stream'), `a stream: ${raw.headers.get('Content-Type')}`);
  const id = await create();
  const reader = raw.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the feed ended before an event about ${id}`);
      text += value;
      const events = text.split('\n\n');
      text = events.pop()!;
      for (const block of events) {
        const field = (name: string) =>
          block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
        const data = field('data');
        if (data && (JSON.parse(data) as { id: number }).id === id) return { id, event: field('event')! };
      }
    }
  } finally {
    await reader.cancel();
  }
}

/** The update body for a record as read: its version, memo and vessel link. */
function update(sighting: SightingDetail) {
  return { version: sighting.version, sightingMemo: sighting.sightingMemo,
    vessel: { vesselId: sighting.vessel.vesselId } };
}
console.log('typescript-fetch scenario: every step passed');
