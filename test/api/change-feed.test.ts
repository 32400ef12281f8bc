// The change feed: Server-Sent Events of every committed change, resumable with Last-Event-ID, filtered by vessel.
import { expect } from 'chai';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { sharedService, startService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import { dataOf, openEventStream } from '../support/event-stream.ts';
import { samples } from '../support/scrape.ts';
import { tokenFor } from '../support/tokens.ts';
import { eventually } from '../support/condition.ts';

describe('change feed @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when a sighting is created, updated and deleted, ' +
    'then a subscriber gets the three events in order with growing ids and the list view', async () => {
    const vesselId = await createVessel(service);
    const stream = await openEventStream(service, `/sighting/events?vesselId=${vesselId}`);
    try {
      expect(stream.response.status).to.equal(200);
      expect(stream.response.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      const body = buildSighting({ vessel: { vesselId } });
      const id = await createSighting(service, body);
      const api = await apiClient(service);
      await api.PUT('/sighting/{id}', { params: { path: { id } },
        body: { ...body, version: 0, sightingMemo: unique('changed'), sightingTimezone: 'UTC' } });
      await api.DELETE('/sighting/{id}', { params: { path: { id } } });
      const delivered = async () => (await samples(service.url, 'change_feed_events_delivered_total')).get('') ?? 0;
      await stream.until(({ events }) => events.length >= 3);
      expect(await delivered()).to.be.at.least(3);
      expect(stream.events.map((event) => event.event)).to.deep.equal(['created', 'updated', 'deleted']);
      const ids = stream.events.map((event) => Number(event.id));
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).to.equal(3);
      const vesselName = (await api.GET('/vessel/{id}', { params: { path: { id: vesselId } } })).data!.vesselName.en;
      expect(dataOf(stream.events[1]!)).to.deep.equal({ id, version: 1,
        record: { sightingId: id, vessel: { vesselId, vesselName }, sightingTimezone: 'UTC', sightingDate: null } });
      expect(dataOf(stream.events[2]!)).to.deep.equal({ id, version: 1, record: null });
    } finally {
      stream.close();
    }
  });

  it('when a stream has started, then its request holds no copy of the bearer token, and the stream goes on',
    async () => {
      const vesselId = await createVessel(service);
      const path = `/sighting/events?vesselId=${vesselId}`;
      const token = await tokenFor(service.realm, 'alice');
      let request: IncomingMessage | undefined;
      const started = (message: unknown) => {
        const one = (message as { request: IncomingMessage }).request;
        if (one.url?.endsWith(path)) request = one;
      };
      subscribe('http.server.request.start', started);
      const stream = await openEventStream(service, path, { token });
      try {
        const kept = () => [request?.headers.authorization, ...request?.rawHeaders ?? []]
          .filter((value) => value?.includes(token)).length;
        await eventually(() => request && kept() === 0, { what: 'the stream\'s request without the token' });
        const id = await createSighting(service, buildSighting({ vessel: { vesselId } }));
        await stream.until(({ events }) => events.length >= 1);
        expect(dataOf(stream.events[0]!).id).to.equal(id);
      } finally {
        unsubscribe('http.server.request.start', started);
        stream.close();
      }
    });

  it('when a sighting moves to another vessel, ' +
    'then subscribers of both vessels get the update, and others none', async () => {
    const [from, to, other] = [await createVessel(service), await createVessel(service), await createVessel(service)];
    const streams = await Promise.all([from, to, other].map((vesselId) =>
      openEventStream(service, `/sighting/events?vesselId=${vesselId}`)));
    try {
      const body = buildSighting({ vessel: { vesselId: from } });
      const id = await createSighting(service, body);
      await (await apiClient(service)).PUT('/sighting/{id}',
        { params: { path: { id } }, body: { ...body, version: 0, vessel: { vesselId: to } } });
      // A later change of the unrelated vessel's own sighting marks the end: everything before it has been delivered.
      await createSighting(service, buildSighting({ vessel: { vesselId: other } }));
      await Promise.all(streams.map((stream, i) => stream.until(({ events }) => events.length >= [2, 1, 1][i]!)));
      expect(streams[0]!.events.map((event) => event.event)).to.deep.equal(['created', 'updated']);
      expect(streams[1]!.events.map((event) => event.event)).to.deep.equal(['updated']);
      expect(streams[2]!.events.map((event) => dataOf(event).id)).to.not.include(id);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('when a subscriber reconnects with Last-Event-ID, ' +
    'then it gets every later event once, and an unknown id starts with reset', async () => {
    const vesselId = await createVessel(service);
    const first = await openEventStream(service, `/sighting/events?vesselId=${vesselId}`);
    const made = [await createSighting(service, buildSighting({ vessel: { vesselId } }))];
    await first.until(({ events }) => events.length === 1);
    first.close();
    for (let i = 0; i < 3; i += 1) made.push(await createSighting(service, buildSighting({ vessel: { vesselId } })));
    const resumed = await openEventStream(service, `/sighting/events?vesselId=${vesselId}`,
      { headers: { 'Last-Event-ID': first.events[0]!.id! } });
    try {
      await resumed.until(({ events }) => events.length >= 3);
      made.push(await createSighting(service, buildSighting({ vessel: { vesselId } })));
      await resumed.until(({ events }) => events.length >= 4);
      expect(resumed.events.map((event) => dataOf(event).id)).to.deep.equal(made.slice(1));
    } finally {
      resumed.close();
    }
    const unknown =
      await openEventStream(service, '/sighting/events', { headers: { 'Last-Event-ID': '9007199254740000' } });
    try {
      await unknown.until(({ events }) => events.length >= 1);
      expect(unknown.events[0]).to.deep.equal({ event: 'reset', data: '{}' });
    } finally {
      unknown.close();
    }
  });

  it('when the caller accepts only JSON (as generated clients ask), then it gets the stream and its events; ' +
    'accepting neither the stream nor JSON is a 406, no token a 401', async () => {
    const vesselId = await createVessel(service);
    const stream = await openEventStream(service, `/sighting/events?vesselId=${vesselId}`,
      { headers: { Accept: 'application/json' } });
    try {
      expect([stream.response.status, stream.response.headers.get('content-type')])
        .to.deep.equal([200, 'text/event-stream; charset=utf-8']);
      const id = await createSighting(service, buildSighting({ vessel: { vesselId } }));
      await stream.until(({ events }) => events.length >= 1);
      expect([stream.events[0]!.event, dataOf(stream.events[0]!).id]).to.deep.equal(['created', id]);
    } finally {
      stream.close();
    }
    expect((await rawRequest(service, 'GET', '/sighting/events', { headers: { Accept: 'text/csv' } })).status)
      .to.equal(406);
    expect((await rawRequest(service, 'GET', '/sighting/events',
      { user: null, headers: { Accept: 'text/event-stream' } })).status).to.equal(401);
  });

  describe('an instance of its own', () => {
    let own: TestService;
    before(async () => { own = await startService({ EVENTS_MAX_SUBSCRIBERS: '1', EVENTS_KEEPALIVE_MS: '200' }); });
    after(async () => { await own?.stop(); });

    it('when the instance holds its most streams, ' +
      'then the next is 503 with Retry-After; a quiet stream gets keep-alive comments; a stop ends it', async () => {
      const stream = await openEventStream(own, '/timezone/events');
      expect((await samples(own.url, 'change_feed_streams')).get('')).to.equal(1);
      const refused = await rawRequest(own, 'GET', '/timezone/events', { headers: { Accept: 'text/event-stream' } });
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('5');
      await stream.until(({ comments }) => comments.filter((comment) => comment === 'keep-alive').length >= 2);
      await own.stop();
      await stream.ended;
      own = undefined as never;
    });
  });
});
