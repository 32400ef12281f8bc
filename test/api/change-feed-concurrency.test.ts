// "None lost, none repeated" under concurrent writers: ids from a sequence are not in commit order by themselves, so a
// reader resuming after one event could skip a transaction that took a smaller id and committed later.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { dataOf, openEventStream, type StreamEvent } from '../support/event-stream.ts';

const writers = 50;
// The last change, made once every writer is done: each reader reads until it has it, whatever it lost on the way.
const sentinelZone = 'Pacific/Chatham';
const isSentinel = (event: StreamEvent) => dataOf(event).record?.sightingTimezone === sentinelZone;

describe('change feed under concurrent writers', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /**
   * Reads up to the sentinel in pieces of `piece` events, dropping each stream after its piece and resuming with the
   * last id it kept: events read beyond the piece are dropped on purpose, the resumed stream must deliver them again.
   */
  async function resumingReader(vesselId: number, after: string,
    piece: number): Promise<Array<{ eventId: number; recordId: number }>> {
    const kept: StreamEvent[] = [];
    for (let last = after; !kept.some(isSentinel); last = kept.at(-1)!.id!) {
      const stream =
        await openEventStream(service, `/sighting/events?vesselId=${vesselId}`, { headers: { 'Last-Event-ID': last } });
      await stream.until(({ events }) => events.length >= piece || events.some(isSentinel));
      stream.close();
      const sentinel = stream.events.findIndex(isSentinel);
      kept.push(...stream.events.slice(0, sentinel >= 0 && sentinel < piece ? sentinel + 1 : piece));
    }
    return kept.slice(0, -1).map((event) => ({ eventId: Number(event.id), recordId: dataOf(event).id }));
  }

  it(`when ${writers} writers create at once while readers keep resuming, ` +
    `then every reader gets each change once, in growing id order`, async function () {
    const vesselId = await createVessel(service);
    const live = await openEventStream(service, `/sighting/events?vesselId=${vesselId}`);
    try {
      await createSighting(service, buildSighting({ vessel: { vesselId } }));
      await live.until(({ events }) => events.length === 1);
      const marker = live.events[0]!.id!;
      const write = async () => {
        const ids = await Promise.all(Array.from({ length: writers },
          (_, i) => createSighting(service, buildSighting({ vessel: { vesselId } }), i % 2 ? 'alice' : 'bob')));
        await createSighting(service, buildSighting({ vessel: { vesselId }, sightingTimezone: sentinelZone }));
        return ids;
      };
      const [created, ...readers] = await Promise.all([write(), resumingReader(vesselId, marker, 7),
        resumingReader(vesselId, marker, 13), resumingReader(vesselId, marker, 50)]);
      await live.until(({ events }) => events.some(isSentinel));
      const everyone = [...readers,
        live.events.slice(1, -1).map((event) => ({ eventId: Number(event.id), recordId: dataOf(event).id }))];
      for (const events of everyone) {
        expect(events.map(({ recordId }) => recordId).sort((a, b) => a - b))
          .to.deep.equal([...created].sort((a, b) => a - b));
        const ids = events.map(({ eventId }) => eventId);
        expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!), 'event ids grow').to.equal(true);
      }
    } finally {
      live.close();
    }
  });
});
