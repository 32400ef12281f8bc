// The client scenario with the generated typescript-fetch SDK: every step against the running service, failing loudly.
// Usage (clients/consume.sh typescript installs the package and runs it): node scenario.js <api base URL> <token endpoint URL>
import { randomUUID } from 'node:crypto';
import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import {
  Configuration, GeneralErrorFromJSON, ResponseError, SightingApi, VesselApi, type SightingDetail,
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
    const answer = error instanceof ResponseError ? `: HTTP ${error.response.status} ${await error.response.text().catch(() => '')}` : '';
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

await step('list the vessels', async () => {
  const ids = (await vessels.listVessels()).map((v) => v.vesselId);
  ok(ids.includes(-1) && ids.includes(-2), `the demo vessels -1 and -2 are listed: ${ids}`);
});
await step('read sighting -1', async () => {
  const sighting = await sightings.getSighting({ id: -1 });
  deepStrictEqual({ id: sighting.sightingId, memo: sighting.sightingMemo, vessel: sighting.vessel.vesselId }, { id: -1, memo: 'unheimlich!', vessel: -1 });
});
await step('create without Prefer: 201, the new id in Location', async () => {
  const answer = await sightings.createSightingRaw({
    sightingCreate: { sightingMemo: memo, vessel: { vesselId: -1 }, sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30' },
  });
  const location = answer.raw.headers.get('Location') ?? '';
  const id = Number(location.slice(location.lastIndexOf('/') + 1));
  // The body is declared for `Prefer: return=representation`; without it there is none to read (value() would fail).
  deepStrictEqual([answer.raw.status, await answer.raw.text()], [201, '']);
  ok(id > 0, `a new positive id in Location, got ${location}`);
  created = await sightings.getSighting({ id });
  deepStrictEqual([created.sightingId, created.version, created.sightingMemo, created.sightingDate], [id, 0, memo, '2026-11-22T21:30:00.000']);
});
await step('create with Prefer: return=representation: the SDK returns the new record', async () => {
  const answer = await sightings.createSighting({
    prefer: 'return=representation', sightingCreate: { sightingMemo: `${memo} (represented)`, vessel: { vesselId: -1 } },
  });
  deepStrictEqual([answer.version, answer.sightingMemo, answer.vessel.vesselId], [0, `${memo} (represented)`, -1]);
  deepStrictEqual(await sightings.getSighting({ id: answer.sightingId }), answer);
});
await step('read it back', async () => {
  deepStrictEqual(await sightings.getSighting({ id: created.sightingId }), created);
});
await step('update with the version read', async () => {
  await sightings.updateSighting({ id: created.sightingId, sightingUpdate: { ...update(created), sightingMemo: `${memo} (updated)` } });
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
    id: created.sightingId, ifMatch: '"1"', prefer: 'return=representation', sightingPatch: { sightingMemo: `${memo} (patched)` },
  });
  deepStrictEqual([patched?.version, patched?.sightingMemo, patched?.vessel.vesselId], [2, `${memo} (patched)`, -1]);
});
await step('the history lists every version, newest first, each record as it was', async () => {
  const versions = await sightings.listSightingVersions({ id: created.sightingId });
  deepStrictEqual(versions.map((v) => [v.version, v.change]), [[2, 'updated'], [1, 'updated'], [0, 'created']]);
  strictEqual(versions[2]?.record?.sightingMemo, memo);
});
await step('one version: the history filtered by version (the successor of the deprecated getSightingVersion)', async () => {
  const versions = await sightings.listSightingVersions({ id: created.sightingId, version: 1 });
  deepStrictEqual(versions.map((v) => [v.version, v.change, v.record?.sightingMemo]), [[1, 'updated', `${memo} (updated)`]]);
});
await step('the deprecated getSightingVersion still answers, announcing Deprecation, Sunset and its changelog entry', async () => {
  // The compiler marks the call deprecated (test/clients/sdk-deprecations.test.ts); at run time the answer's headers say it.
  const answer = await sightings.getSightingVersionRaw({ id: created.sightingId, version: 1 });
  const [deprecation, sunset, link] = ['Deprecation', 'Sunset', 'Link'].map((name) => answer.raw.headers.get(name) ?? '');
  ok(/^@\d+$/.test(deprecation!), `Deprecation: @<unix seconds> (RFC 9745), got ${deprecation}`);
  ok(!Number.isNaN(Date.parse(sunset!)), `Sunset: an HTTP date (RFC 8594), got ${sunset}`);
  ok(/^<\/changelog\.md#contract-[\d.]+>; rel="deprecation"/.test(link!), `Link to the changelog entry, rel="deprecation", got ${link}`);
  strictEqual((await answer.value()).sightingMemo, `${memo} (updated)`);
});
await step('a sorted list: the newest ids first', async () => {
  const ids = (await sightings.listSightings({ sort: '-sightingId', limit: 3 })).map((s) => s.sightingId);
  deepStrictEqual(ids, [...ids].sort((a, b) => b - a));
  ok(ids[0]! >= created.sightingId, `the newest first, got ${ids}`);
});
await step('query by example: the memo', async () => {
  const found = await sightings.querySightingsByExample({ sightingExample: { sightingMemo: `${memo} (patched)`.toUpperCase() } });
  deepStrictEqual(found?.map((s) => s.sightingId), [created.sightingId]);
});
await step('query by example: a vessel name by language, {de: "Jäger"}', async () => {
  const found = await vessels.queryVesselsByExample({ vesselExample: { vesselName: { de: 'Jäger' } } });
  const ids = found?.map((v) => v.vesselId) ?? [];
  ok(ids.includes(-1) && !ids.includes(-2), `vessel -1 only of the demo vessels, got ${ids}`);
  ok(found!.every((v) => v.vesselName['de']?.toLowerCase().includes('jäger')), 'every match has Jäger in its German name');
});
await step('query by example: no match is a 204', async () => {
  const response = await sightings.querySightingsByExampleRaw({ sightingExample: { sightingMemo: randomUUID() } });
  strictEqual(response.raw.status, 204);
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

/** The update body for a record as read: its version, memo and vessel link. */
function update(sighting: SightingDetail) {
  return { version: sighting.version, sightingMemo: sighting.sightingMemo, vessel: { vesselId: sighting.vessel.vesselId } };
}
console.log('typescript-fetch scenario: every step passed');
