// The change feed under a batch create (docs/api.md#whole-data-sets-in-batch-create): its created events reach every
// open stream in commit order with other writers' creates in their place, on this instance and on another sharing the
// database; a client that stops reading is cut off and resumes with what it missed; one that leaves mid-batch and
// resumes with Last-Event-ID gets exactly the rest.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { backend, connectionWaitBounds, startService, type TestService } from '../support/service.ts';
import { streamTokenLifeMs, tokenFor } from '../support/tokens.ts';
import { buildSighting, buildVessel, createVessel, idFromLocation, unique } from '../support/fixtures.ts';
import { onceOrLast } from '../support/condition.ts';
import { samples } from '../support/scrape.ts';
import { readThenStop } from '../support/leaving-clients.ts';
import { dataOf, openEventStream, type EventStream, type StreamEvent } from '../support/event-stream.ts';

/** The most a socket's send buffer grows to on this host (Linux's tcp_wmem; its default, 4 MiB, if unknown). */
const sendBufferMax = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/tcp_wmem', 'utf8').trim().split(/\s+/)[2]) || 4 * 2 ** 20;
  } catch {
    return 4 * 2 ** 20;
  }
})();
/**
 * Sightings in the batch: at least 40 of the history's reads of 500, and half again more events (some 390 bytes each,
 * with the long vessel name below) than a stopped client's sockets and the stream's bound (1 MiB) hold together.
 */
const batchSize = Math.max(20_000, Math.ceil(1.5 * (sendBufferMax + 2 ** 20 + 2 ** 18) / 390));
/** A record's place in a stream: the event id and the record's id. */
type Place = [eventId: number, recordId: number];

const placesOf = (events: StreamEvent[], wanted: ReadonlySet<number>): Place[] => events
  .filter((event) => event.event === 'created' && wanted.has(dataOf(event).id))
  .map((event) => [Number(event.id), dataOf(event).id]);

/** A check for `until`: `count` of the wanted events have come (counted as they come, each event read once). */
function hasAll(wanted: ReadonlySet<number>, count = wanted.size) {
  let read = 0;
  let found = 0;
  return ({ events }: EventStream) => {
    for (; read < events.length; read += 1) {
      const event = events[read]!;
      if (event.event === 'created' && wanted.has(dataOf(event).id)) found += 1;
    }
    return found >= count;
  };
}

/** The first place two sequences part, or undefined when they are the same. */
function firstDifference(seen: Place[], expected: Place[]): string | undefined {
  for (let index = 0; index < Math.max(seen.length, expected.length); index += 1) {
    const [a, b] = [seen[index], expected[index]];
    if (a?.[0] !== b?.[0] || a?.[1] !== b?.[1]) {
      return `at ${index} of ${expected.length}: ${JSON.stringify(a)} instead of ${JSON.stringify(b)}`;
    }
  }
  return undefined;
}

describe(`change feed under a batch create (${backend}) @pgbouncer`, function () {
  this.timeout(600_000);
  let first: TestService;
  /** Another instance on the same database (PostgreSQL); on PGlite, which one process holds, the same instance. */
  let second: TestService;
  before(async () => {
    // A stream whose client takes nothing is cut off after 30 s: long enough that the test's own readers, in this
    // process, are never cut by a loaded machine's pause. The batch's body is parsed on the loop this process's readers
    // read on (and on PGlite its statements run there too): a loaded machine stretched their pauses past 10 s (a
    // stream cut off half-way; on PostgreSQL, with the bound at 10 s, one ended before its first event), and a
    // request's arrival past REQUEST_TIMEOUT_MS (30 s by default: a 408, or the connection closed mid-request), so a
    // request's arrival may take up to 5 minutes.
    // Through PgBouncer on CI's loaded machine a new connection took longer than the default 3 s to come (the feed's
    // LISTEN timed out, and twice a stream ended with no event): the waits for one are bounded as the shared service's.
    const bounds = { EVENTS_MAX_SUBSCRIBERS_PER_CALLER: '20', STREAM_WRITE_TIMEOUT_MS: '30000',
      REQUEST_TIMEOUT_MS: '300000', ...connectionWaitBounds };
    first = await startService(bounds);
    second = backend === 'postgresql'
      ? await startService({ DATABASE_URL: first.web.config.DATABASE_URL,
        DATABASE_DIRECT_URL: first.web.config.DATABASE_DIRECT_URL, ...bounds })
      : first;
  });
  after(async () => {
    if (second !== first) await second?.stop();
    await first?.stop();
  });

  const streamsOf = async (service: TestService) =>
    (await samples(service.url, 'change_feed_streams')).get('') ?? 0;

  /** One create by alice, with a token of the service's realm taken anew when the last is near its end: the other
   * writer keeps creating for as long as the batch takes, on a loaded machine longer than a token lives (a 401). */
  async function createOne(service: TestService): Promise<number> {
    const headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`,
      'Content-Type': 'application/json' };
    const response = await fetch(`${service.api}/sighting`,
      { method: 'POST', headers, body: JSON.stringify(buildSighting()) });
    expect(response.status).to.equal(201);
    return idFromLocation(response.headers.get('location'));
  }

  it('when 20,000 sightings or more come in one batch while another writer creates one at a time, ' +
    'then every stream gets every created event once in one order, a stopped reader is cut off and resumes, ' +
    'and a stream left mid-batch resumes with exactly the rest', async () => {
    const token = await tokenFor(first.realm, 'alice', streamTokenLifeMs);
    const json = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const eventHeaders = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
    const marker = await (async () => {
      // The marker: a create before the batch, the place the stopped reader resumes after.
      const stream = await openEventStream(first, '/sighting/events');
      try {
        const id = await createOne(first);
        await stream.until(({ events }) => events.some((event) => dataOf(event).id === id));
        return stream.events.find((event) => dataOf(event).id === id)!.id!;
      } finally {
        stream.close();
      }
    })();

    // Open before the batch: two streams here (one in German), one on the other instance, one that will leave, and one
    // whose client stops reading once it has the marker's event.
    const [here, german, there, leaving] = await Promise.all([
      openEventStream(first, '/sighting/events', { headers: { 'Last-Event-ID': marker } }),
      openEventStream(first, '/sighting/events', { headers: { 'Last-Event-ID': marker, 'Accept-Language': 'de' } }),
      openEventStream(second, '/sighting/events', { headers: { 'Last-Event-ID': marker } }),
      openEventStream(first, '/sighting/events', { headers: { 'Last-Event-ID': marker } }),
    ]);
    const opened = [here, german, there, leaving];
    const stopped = await readThenStop(first.url, { path: '/api/sighting/events',
      headers: { ...eventHeaders, 'Last-Event-ID': String(Number(marker) - 1) } },
    (text) => text.includes(`id: ${marker}\n`));
    const later: EventStream[] = [];
    try {
      expect(opened.map(({ response }) => response.status)).to.deep.equal([200, 200, 200, 200]);
      // A vessel with a long name, and a long time zone: more events than the sockets of a client that stopped reading
      // hold and the stream's own bound together (see batchSize).
      const vesselId =
        await createVessel(first, buildVessel({ vesselName: { en: `${unique('Vessel')} `.padEnd(200, 'v') } }));
      const memo = unique('batch');
      const records = Array.from({ length: batchSize }, (_, index) => buildSighting({ sightingMemo: `${memo} ${index}`,
        vessel: { vesselId }, sightingTimezone: 'America/Argentina/ComodRivadavia' }));

      // Another writer, on the other instance, creates one sighting after the other until the batch has answered.
      let batchAnswered = false;
      const singles = (async () => {
        const made: number[] = [];
        do made.push(await createOne(second)); while (!batchAnswered);
        made.push(await createOne(second));
        return made;
      })();
      // Awaited below; a failure meanwhile is not an unhandled one.
      singles.catch(() => {});
      // Its answer read as soon as it comes: a client that leaves it unread for STREAM_WRITE_TIMEOUT_MS is cut off.
      const batch = fetch(`${first.api}/sighting/batch`,
        { method: 'POST', headers: json, body: JSON.stringify(records) })
        .then(async (response) => ({ status: response.status,
          body: await response.json() as Array<{ sightingId: number }> }))
        .finally(() => { batchAnswered = true; });
      batch.catch(() => {});

      // The leaving stream closes once it has a quarter of the batch, and resumes after the last event it had.
      const leftAfter = await leaving.until((stream) => stream.events.filter(({ event }) => event === 'created').length
        > batchSize / 4, 300_000).then(async () => {
        leaving.close();
        await leaving.ended;
        return leaving.events.at(-1)!.id!;
      });
      const resumed = await openEventStream(first, '/sighting/events', { headers: { 'Last-Event-ID': leftAfter } });
      later.push(resumed);

      const answer = await batch;
      expect(answer.status).to.equal(201);
      const batchIds = answer.body.map(({ sightingId }) => sightingId);
      const singleIds = await singles;
      expect(singleIds.length).to.be.above(0);
      const wanted = new Set([...batchIds, ...singleIds]);
      const rest = wanted.size - placesOf(leaving.events, wanted).length;
      // Each named in a failure: which stream ended or fell short says where to look.
      const named = (name: string, waited: Promise<void>) =>
        waited.catch((error: Error) => { throw new Error(`${name}: ${error.message}`, { cause: error }); });
      await Promise.all([named('here', here.until(hasAll(wanted), 300_000)),
        named('German', german.until(hasAll(wanted), 300_000)),
        named('other instance', there.until(hasAll(wanted), 300_000)),
        named('resumed', resumed.until(hasAll(wanted, rest), 300_000))]);

      // The reference: this instance's stream, every record once, the batch's in input order, event ids ascending.
      const reference = placesOf(here.events, wanted);
      expect(reference).to.have.length(wanted.size);
      expect(new Set(reference.map(([, id]) => id)).size).to.equal(wanted.size);
      expect(reference.every(([eventId], index) => index === 0 || eventId > reference[index - 1]![0])).to.equal(true);
      const batchSet = new Set(batchIds);
      const batchOrder = reference.filter(([, id]) => batchSet.has(id)).map(([, id]) => id);
      expect(batchOrder.findIndex((id, index) => id !== batchIds[index]), 'first batch record out of input order')
        .to.equal(-1);
      // The same sequence on every other stream: the German one, the other instance's, the left one's two parts.
      expect(firstDifference(placesOf(german.events, wanted), reference), 'German').to.equal(undefined);
      expect(firstDifference(placesOf(there.events, wanted), reference), 'other instance').to.equal(undefined);
      expect(firstDifference(placesOf([...leaving.events, ...resumed.events], wanted), reference), 'left and resumed')
        .to.equal(undefined);
      expect(placesOf(leaving.events, wanted).length).to.be.within(1, wanted.size - 1);

      // The client that stopped reading is cut off (it took nothing while data waited for it): the instance lets go of
      // its stream. (Its own socket, paused, reads no end.) Resuming after the marker it is given everything it
      // missed, in the same order.
      const stillOpen = second === first ? 4 : 3; // the two streams, the resumed one (and on PGlite the "other's")
      expect(await onceOrLast(() => streamsOf(first), (open) => open === stillOpen, 120_000),
        'streams open once the stopped reader is cut off').to.equal(stillOpen);
      const again = await openEventStream(first, '/sighting/events', { headers: { 'Last-Event-ID': marker } });
      later.push(again);
      await again.until(hasAll(wanted), 300_000);
      expect(firstDifference(placesOf(again.events, wanted), reference), 'stopped and resumed').to.equal(undefined);
    } finally {
      stopped.destroy();
      for (const stream of [...opened, ...later]) stream.close();
    }
  });
});
