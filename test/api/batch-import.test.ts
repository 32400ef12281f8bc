// POST /{resource}/batch in JSON and JSON lines: every record stored with its history entry and event, or none.
import { expect } from 'chai';
import { backend, sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, buildTimezone, buildVessel, unique } from '../support/fixtures.ts';
import { openEventStream, dataOf, type StreamEvent } from '../support/event-stream.ts';
import type { User } from '../support/tokens.ts';

type Created = Array<Record<string, number>>;
const asLines = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join('\n') + '\n';

describe(`batch import in JSON and JSON lines (${backend})`, function () {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function batch(resource: string, body: string, { type = 'application/json', user = 'admin' as User,
    headers = {} as Record<string, string> } = {}) {
    const response = await rawRequest(service, 'POST', `/${resource}/batch`,
      { user, body, headers: { 'Content-Type': type, ...headers } });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) as unknown : undefined };
  }

  const read = async (path: string, user: User = 'admin') => {
    const response = await rawRequest(service, 'GET', path, { user });
    expect(response.status, path).to.equal(200);
    return response.json() as Promise<Record<string, unknown>>;
  };

  const count = async (path: string) => (await read(path) as unknown as unknown[]).length;

  const collections = {
    timezone: { id: 'timezoneId', build: () => buildTimezone() },
    vessel: {
      id: 'vesselId', build: () => buildVessel({ vesselName: { en: unique('Vessel'), de: unique('Schiff') } }),
    },
    sighting: { id: 'sightingId', build: () => buildSighting() },
  } as const;

  for (const [resource, { id, build }] of Object.entries(collections)) {
    for (const [format, type, encode] of [['a JSON array', 'application/json', JSON.stringify],
      ['JSON lines', 'application/x-ndjson', asLines]] as const) {
      it(`when three ${resource}s come as ${format}, then 201 answers their ids in input order and each reads back ` +
        'as sent, with one created entry', async () => {
        const records = [build(), build(), build()];
        const answer = await batch(resource, encode(records), { type });
        expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
        const created = answer.body as Created;
        expect(created).to.have.length(3);
        expect(created.map((record) => record.version)).to.deep.equal([0, 0, 0]);
        const ids = created.map((record) => record[id]!);
        expect([...ids].sort((a, b) => a - b)).to.deep.equal(ids);
        for (const [index, record] of records.entries()) {
          const stored = await read(`/${resource}/${ids[index]}`);
          expect(stored).to.deep.include({ version: 0, [id]: ids[index] });
          const sent = record as Record<string, unknown>;
          if (resource === 'vessel') expect(stored.vesselName).to.deep.equal(sent.vesselName);
          else expect(stored).to.containSubset(resource === 'sighting' ? { sightingMemo: sent.sightingMemo } : sent);
          const versions =
            await read(`/${resource}/${ids[index]}/versions`) as unknown as Array<Record<string, unknown>>;
          expect(versions.map(({ version, change }) => ({ version, change })))
            .to.deep.equal([{ version: 0, change: 'created' }]);
          expect(versions[0]!.record).to.deep.equal(stored);
        }
      });
    }
  }

  it('when 6,000 sightings come as JSON lines (more rows than one statement\'s), then a subscriber that resumes ' +
    'with Last-Event-ID whenever its stream ends sees 6,000 created events in input order, none twice', async () => {
    // A stream the feed can no longer serve is ended (docs/behaviour.md); the client resumes where it was.
    let stream = await openEventStream(service, '/sighting/events');
    const seen: StreamEvent[] = [];
    const memo = unique('many');
    const records = Array.from({ length: 6000 }, (_, index) => buildSighting({ sightingMemo: `${memo} ${index}` }));
    const answer = await batch('sighting', asLines(records), { type: 'application/x-ndjson', user: 'alice' });
    expect(answer.status).to.equal(201);
    const ids = (answer.body as Created).map((record) => record.sightingId!);
    const wanted = new Set(ids);
    const ours = (events: StreamEvent[]) => events.filter((event) => wanted.has(dataOf(event).id));
    for (let streams = 1; ; streams += 1) {
      const ended = await stream.until((open) => ours([...seen, ...open.events]).length >= ids.length)
        .then(() => false, (error: Error) => {
          if (!/the stream ended/.test(error.message) || streams > 100) throw error;
          return true;
        });
      seen.push(...stream.events);
      stream.close();
      if (!ended) break;
      stream = await openEventStream(service, '/sighting/events', { headers: { 'Last-Event-ID': seen.at(-1)!.id! } });
    }
    expect(ours(seen).map((event) => [event.event, dataOf(event).id])).to.deep.equal(ids.map((id) => ['created', id]));
    for (const index of [0, 2999, 5999]) {
      expect((await read(`/sighting/${ids[index]}`)).sightingMemo).to.equal(`${memo} ${index}`);
      const versions = await read(`/sighting/${ids[index]}/versions`) as unknown as Array<{ change: string }>;
      expect(versions.map(({ change }) => change)).to.deep.equal(['created']);
    }
  });

  for (const position of ['first', 'last'] as const) {
    it(`when the bad record is the ${position} of 50 sightings, then 400 names it by position, field and key, and ` +
      'none is stored', async () => {
      const memo = unique('batch');
      const records = Array.from({ length: 50 }, () => buildSighting({ sightingMemo: memo }));
      const bad = position === 'first' ? 0 : 49;
      records[bad] = buildSighting({ sightingMemo: 'x' });
      const answer = await batch('sighting', JSON.stringify(records), { user: 'alice' });
      expect(answer).to.deep.equal({ status: 400, body: { records: [{ record: bad + 1, field: 'sightingMemo',
        message: 'The memo must have at least 2 characters.', key: 'sighting.memo.minLength' }] } });
      expect(await count(`/sighting?sightingMemo=${encodeURIComponent(memo)}`)).to.equal(0);
    });
  }

  it('when records break several rules in German, then each is named in the caller\'s language, in record order',
    async () => {
      const records = [buildSighting(), buildSighting({ sightingMemo: 'x' }), { ...buildSighting(), colour: 'red' },
        buildSighting({ vessel: { vesselId: 987_654_321 } })];
      const answer = await batch('sighting', JSON.stringify(records),
        { user: 'alice', headers: { 'Accept-Language': 'de' } });
      expect(answer.status).to.equal(400);
      const entries = (answer.body as { records: Array<Record<string, unknown>> }).records;
      expect(entries.map(({ record, field, key }) => ({ record, field, key }))).to.deep.equal([
        { record: 2, field: 'sightingMemo', key: 'sighting.memo.minLength' },
        { record: 3, field: 'colour', key: 'error.field.unknown' },
        { record: 4, field: 'vessel', key: 'sighting.vessel.notFound' },
      ]);
      expect(entries[0]!.message).to.equal('Das Memo muss mindestens 2 Zeichen haben.');
    });

  it('when an unknown field\'s name holds control characters or is very long, then 400 names it as text the ' +
    'contract allows: controls as \\uXXXX, at most 1,000 characters (found by the hostile suite, seed 4)', async () => {
    const long = 'k'.repeat(1500);
    const records = [{ ...buildSighting(), '\u0004😀': [] }, { ...buildSighting(), [long]: 1 }];
    const answer = await batch('sighting', JSON.stringify(records), { user: 'alice' });
    expect(answer.status).to.equal(400);
    const fields = (answer.body as { records: Array<{ field: string }> }).records.map(({ field }) => field);
    expect(fields).to.deep.equal(['\\u0004😀', `${'k'.repeat(999)}…`]);
  });

  it('when more than 100 records are bad, then 100 are listed and _more counts the rest', async () => {
    const records = Array.from({ length: 130 }, () => buildSighting({ sightingMemo: 'x' }));
    const answer = await batch('sighting', JSON.stringify(records), { user: 'alice' });
    expect(answer.status).to.equal(400);
    const body = answer.body as { records: Array<{ record: number }>; _more: number };
    expect(body.records.map(({ record }) => record)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(body._more).to.equal(30);
  });

  it('when records of a JSON array are not objects, then 400 names each by position', async () => {
    const answer = await batch('sighting', JSON.stringify([buildSighting(), 1, null, 'x', []]), { user: 'alice' });
    expect(answer.status).to.equal(400);
    expect((answer.body as { records: Array<Record<string, unknown>> }).records
      .map(({ record, field, key }) => ({ record, field, key }))).to.deep.equal([2, 3, 4, 5]
      .map((record) => ({ record, field: 'body', key: 'error.field.type' })));
  });

  it('when a JSON line is not a JSON object, then 400 names that line and nothing is stored', async () => {
    const memo = unique('lines');
    const text = `${JSON.stringify(buildSighting({ sightingMemo: memo }))}\n{"sightingMemo": \n`;
    expect(await batch('sighting', text, { type: 'application/x-ndjson', user: 'alice' })).to.deep.equal({
      status: 400, body: { records: [{ record: 2, field: 'body', message: 'The request body is not well-formed.',
        key: 'error.malformedBody' }] } });
    expect(await count(`/sighting?sightingMemo=${encodeURIComponent(memo)}`)).to.equal(0);
  });

  it('when an exported sighting is sent back, then its id, version and vessel fields are ignored: a new record',
    async () => {
      const original = await read('/sighting/-1');
      const answer = await batch('sighting', JSON.stringify([original]), { user: 'alice' });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
      const [{ sightingId }] = answer.body as Created as [{ sightingId: number }];
      expect(sightingId).to.not.equal((original as { sightingId: number }).sightingId);
      const copy = await read(`/sighting/${sightingId}`);
      const { sightingId: _a, version: _b, ...same } = original as Record<string, unknown>;
      expect(copy).to.deep.include({ ...same, version: 0 });
    });

  it('when the last time zone of a batch takes a name that exists, then 409 and none of the batch is stored',
    async () => {
      const fresh = buildTimezone();
      const answer = await batch('timezone', JSON.stringify([fresh, { timezoneName: 'Europe/Berlin' }]));
      expect(answer).to.deep.equal({ status: 409, body: { general: 'A record with this value exists already.' } });
      expect(await count(`/timezone?timezoneName=${encodeURIComponent(fresh.timezoneName)}`)).to.equal(0);
    });

  it('when a reader sends a batch, then 403 before the body is read', async () => {
    const answer = await batch('sighting', '[not even json', { user: 'viewer' });
    expect(answer.status).to.equal(403);
  });

  it('when a subscriber watches the feed, then it sees one created event per record, in input order', async () => {
    const stream = await openEventStream(service, '/sighting/events');
    try {
      const records = Array.from({ length: 20 }, () => buildSighting());
      const answer = await batch('sighting', JSON.stringify(records), { user: 'alice' });
      expect(answer.status).to.equal(201);
      const ids = (answer.body as Created).map((record) => record.sightingId);
      const ours = () => stream.events.filter((event) => ids.includes(dataOf(event).id as number));
      await stream.until(() => ours().length === ids.length);
      expect(ours().map((event) => [event.event, dataOf(event).id])).to.deep.equal(ids.map((id) => ['created', id]));
    } finally {
      stream.close();
    }
  });
});
