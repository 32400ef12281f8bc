// The change feed under production load (docs/behaviour.md#streams-and-clients-that-leave): subscribers that leave hold
// nothing, opening and resuming do not wait for writers, the stream bounds are exact, and a stream ends when its token
// does.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { poolConnections, samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';
import { readPartAndLeave } from '../support/leaving-clients.ts';
import { buildSighting } from '../support/fixtures.ts';
import { openEventStream, type EventStream } from '../support/event-stream.ts';
import { startTestRealm, type TestRealm } from '../support/forged-tokens.ts';
import { connect } from 'node:net';

/** Streams this instance holds, as its metrics say. */
const streamsOf = async (service: TestService) => (await samples(service.url, 'change_feed_streams')).get('') ?? 0;
const poolInUse = async (service: TestService) => (await poolConnections(service.url)).used;
const delivered = async (service: TestService) =>
  (await samples(service.url, 'change_feed_events_delivered_total')).get('') ?? 0;

/** Creates sightings from `count` writers, each one after the other, until `stop` says so. */
function writers(service: TestService, count: number, stop: () => boolean): Promise<number> {
  const write = async () => {
    const headers =
      { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`, 'Content-Type': 'application/json' };
    let made = 0;
    while (!stop()) {
      const response =
        await fetch(`${service.api}/sighting`, { method: 'POST', headers, body: JSON.stringify(buildSighting()) });
      expect(response.status).to.equal(201);
      made += 1;
    }
    return made;
  };
  return Promise.all(Array.from({ length: count }, write)).then((made) => made.reduce((a, b) => a + b, 0));
}

const openAll = (streams: Array<Promise<EventStream>>) => Promise.all(streams);
const closeAll = (streams: EventStream[]) => { for (const stream of streams) stream.close(); };

describe(`change feed under load (${backend}) @pgbouncer`, function () {

  describe('replaying subscribers that leave, and writers that never stop', () => {
    const entries = 20_000;
    let service: TestService;
    before(async () => {
      service = await startService({ EVENTS_MAX_SUBSCRIBERS_PER_CALLER: '100' });
      // A long history to replay; the feed places it in commit order like any other entries.
      await bulkInsert(service, entries, (first, last) => `insert into "record_change"
        ("collection", "record_id", "version", "change", "changed_at", "row", "scope")
        select 'sighting', -1, g, 'updated', now(), null, '{}' from generate_series(${first}, ${last}) g`);
    });
    after(async () => { await service?.stop(); });

    it(`when 30 subscribers replaying ${entries} events leave after their first bytes, ` +
      `then no stream remains, the pool is free, and nothing more is sent them`, async () => {
      const headers = { Accept: 'text/event-stream', Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`,
        'Last-Event-ID': '0' };
      // Each reads the first bytes and closes; the history would take each of them some 40 reads to replay.
      await Promise.all(Array.from({ length: 30 },
        () => readPartAndLeave(service.url, { path: '/api/sighting/events', headers }, 1)));
      const sentAtDeparture = await delivered(service);
      // Each saw its client leave within a few batches, not at the end of its history (on PGlite a replay held the
      // event loop to its end, and the clients' departures went unseen until then).
      expect(sentAtDeparture).to.be.below(30 * entries / 2);
      await eventually(async () => await streamsOf(service) === 0);
      await eventually(async () => await poolInUse(service) === 0);
      expect((await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: headers.Authorization } })).status)
        .to.equal(200);
      // A read already under way for a stream may still be sent (a batch of 500 at most), nothing after it.
      expect(await delivered(service) - sentAtDeparture).to.be.at.most(30 * 500);
    });

    it('when 20 writers create all the time, ' +
      'then 8 new and 8 resumed streams each get their first event while the writers still write', async () => {
      let done = false;
      let writing = true;
      const written = writers(service, 20, () => done).finally(() => { writing = false; });
      const marker = await openEventStream(service, '/sighting/events');
      try {
        await marker.until(({ events }) => events.length > 0);
        const resumeAfter = marker.events[0]!.id!;
        const started: boolean[] = [];
        const opened = await openAll([
          ...Array.from({ length: 8 }, () => openEventStream(service, '/sighting/events')),
          ...Array.from({ length: 8 },
            () => openEventStream(service, '/sighting/events', { headers: { 'Last-Event-ID': resumeAfter } })),
        ]);
        // The writers stop once every stream has had an event, or after some thousands of creates.
        const cap = setInterval(() => { if (marker.events.length > 3000) done = true; }, 50);
        try {
          await Promise.all(opened.map((stream) =>
            stream.until(({ events }) => events.length > 0).then(() => { started.push(writing); })));
        } finally {
          clearInterval(cap);
          done = true;
          closeAll(opened);
        }
        expect(await written).to.be.above(0);
        expect(started).to.deep.equal(Array.from({ length: 16 }, () => true));
        for (const stream of opened.slice(8)) {
          const ids = stream.events.map(({ id }) => Number(id));
          expect(ids[0]).to.be.above(Number(resumeAfter));
          expect(ids).to.deep.equal([...new Set(ids)].sort((a, b) => a - b));
        }
      } finally {
        done = true;
        marker.close();
        await written;
      }
    });
  });

  describe('the stream bounds', () => {
    let service: TestService;
    let realm: TestRealm;
    before(async () => {
      // A realm whose key the test holds, so a token can expire within the test.
      realm = await startTestRealm();
      service = await startService({ KEYCLOAK_URL: realm.url, EVENTS_MAX_SUBSCRIBERS: '50',
        EVENTS_MAX_SUBSCRIBERS_PER_CALLER: '100', EVENTS_KEEPALIVE_MS: '15000' });
    });
    after(async () => {
      await service?.stop();
      await realm?.close();
    });

    const tokenOf = (sub: string, lifeSeconds = 300) =>
      realm.token({ sub, exp: Math.floor(Date.now() / 1000) + lifeSeconds });
    const open = async (sub: string, lifeSeconds?: number) =>
      openEventStream(service, '/sighting/events', { token: await tokenOf(sub, lifeSeconds) });

    it('when 60 streams open at once under writes at a bound of 50 with 1 open, ' +
      'then 49 get 200 and 11 get 503 with Retry-After', async () => {
      const first = await open('bounded-first');
      let done = false;
      const headers =
        { Authorization: `Bearer ${await tokenOf('bounded-writer')}`, 'Content-Type': 'application/json' };
      const writes = Promise.all(Array.from({ length: 4 }, async () => {
        while (!done)
          await fetch(`${service.api}/sighting`, { method: 'POST', headers, body: JSON.stringify(buildSighting()) });
      }));
      try {
        const opened = await openAll(Array.from({ length: 60 }, (_, i) => open(`bounded-${i}`)));
        const statuses = opened.map(({ response }) => response.status);
        expect({ ok: statuses.filter((status) => status === 200).length,
          full: statuses.filter((status) => status === 503).length }).to.deep.equal({ ok: 49, full: 11 });
        expect(opened.filter(({ response }) => response.status === 503)
          .map(({ response }) => response.headers.get('retry-after'))).to.deep.equal(Array(11).fill('5'));
        closeAll(opened);
      } finally {
        done = true;
        first.close();
        await writes;
      }
      await eventually(async () => await streamsOf(service) === 0);
    });

    it('when one caller opens more streams than EVENTS_MAX_SUBSCRIBERS_PER_CALLER allows, ' +
      'then 429 with Retry-After, and others still open', async () => {
      const limited = await startService({ EVENTS_MAX_SUBSCRIBERS_PER_CALLER: '3' });
      try {
        const mine =
          await openAll(Array.from({ length: 3 }, () => openEventStream(limited, '/sighting/events', { user: 'bob' })));
        const fourth =
          await openEventStream(limited, '/sighting/events', { user: 'bob', headers: { 'Accept-Language': 'en' } });
        const other = await openEventStream(limited, '/sighting/events', { user: 'alice' });
        expect([...mine.map(({ response }) => response.status), fourth.response.status, other.response.status])
          .to.deep.equal([200, 200, 200, 429, 200]);
        expect(fourth.response.headers.get('retry-after')).to.equal('5');
        expect(await fourth.response.json()).to.deep.equal({ general:
          'You have as many change streams open here as one caller may; close one, or try again in a moment.' });
        // A stream closed frees its caller's slot too.
        mine[0]!.close();
        await eventually(async () => await streamsOf(limited) === 3);
        const again = await openEventStream(limited, '/sighting/events', { user: 'bob' });
        expect(again.response.status).to.equal(200);
        closeAll([...mine, again, other]);
      } finally {
        await limited.stop();
      }
    });

    it('when a client closes its stream, ' +
      'then its slot is free before any keep-alive could have told (EVENTS_KEEPALIVE_MS 15 s)', async function () {
      // Freed only by a failed keep-alive write, it would take 15 s: the test's own bound is below that.
      this.timeout(10_000);
      const stream = await open('closing');
      await eventually(async () => await streamsOf(service) === 1);
      stream.close();
      await eventually(async () => await streamsOf(service) === 0);
    });

    /** A stream's request as bytes: a client of its own connection, half-closing it when it chooses. */
    const streamRequest = async (sub: string) =>
      `GET ${new URL(`${service.api}/sighting/events`).pathname} HTTP/1.1\r\nHost: ${new URL(service.url).host}\r\n`
      + `Accept: text/event-stream\r\nAuthorization: Bearer ${await tokenOf(sub)}\r\n\r\n`;

    it('when a client half-closes its connection (FIN) once its stream has begun, then the instance closes it and ' +
      'the slot is free before any keep-alive could have told', async function () {
      this.timeout(10_000);
      const { hostname, port } = new URL(service.url);
      const socket = connect(Number(port), hostname);
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => {});
      let received = '';
      const begun = new Promise<void>((resolve) => socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n\r\n')) resolve();
      }));
      socket.write(await streamRequest('half-closing'));
      await begun;
      expect(received).to.match(/^HTTP\/1\.1 200 /);
      await eventually(async () => await streamsOf(service) === 1);
      // Still reading: only its sending side is closed.
      socket.end();
      await closed;
      await eventually(async () => await streamsOf(service) === 0);
    });

    it('when a client half-closes its connection with its stream\'s request, then the instance closes it, and the ' +
      'slot is free', async function () {
      this.timeout(10_000);
      // The request and the FIN in one write. The FIN may be read before the stream has its place in the feed, and
      // then nothing is sent (nobody is left to send it to), or after, once the stream's headers have gone.
      const answer = await rawAnswer(await streamRequest('closing-at-once'));
      expect(answer === '' || /^HTTP\/1\.1 200 /.test(answer), answer).to.equal(true);
      await eventually(async () => await streamsOf(service) === 0);
    });

    /** Sends `request` and half-closes at once; resolves what came back once the instance closes the connection. */
    function rawAnswer(request: string): Promise<string> {
      const { hostname, port } = new URL(service.url);
      const socket = connect(Number(port), hostname);
      let received = '';
      socket.on('data', (chunk: Buffer) => { received += chunk.toString('latin1'); });
      socket.on('error', () => {});
      socket.end(request);
      return new Promise((resolve) => socket.on('close', () => resolve(received)));
    }

    it('when the token of a stream expires, then the stream ends with event token-expired', async () => {
      const stream = await open('expiring', 2);
      expect(stream.response.status).to.equal(200);
      await stream.ended;
      expect(stream.events.map(({ event }) => event)).to.deep.equal(['token-expired']);
      await eventually(async () => await streamsOf(service) === 0);
    });
  });
});
