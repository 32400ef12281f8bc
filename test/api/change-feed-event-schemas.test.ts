// Each event a change feed sends is one its operation's `text/event-stream` schema in openapi.yaml describes
// (created, updated, deleted, reset): read from real streams, every events operation of the contract.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import {
  buildSighting, buildTimezone, buildVessel, createSighting, createTimezone, createVessel,
} from '../support/fixtures.ts';
import { openEventStream, type StreamEvent } from '../support/event-stream.ts';
import { openApiDocument } from '../../src/contract/document.ts';
import { pointer } from '../../src/contract/references.ts';
import { contractSchemas as ajv } from '../../src/validation/schema-check.ts';

const feeds = Object.keys(openApiDocument.paths)
  .filter((path) => path.endsWith('/events') && openApiDocument.paths[path]!.get);
// An id no history holds: the stream starts with `event: reset`.
const unknownEventId = '999999999999';

/** Creates, replaces and deletes one record of `resource`; gives back its id. */
async function changeOne(service: TestService, resource: string): Promise<number> {
  const api = await apiClient(service, { user: resource === 'sighting' ? 'alice' : 'admin' });
  const made = {
    timezone: async () => [await createTimezone(service), buildTimezone()] as const,
    vessel: async () => [await createVessel(service), buildVessel()] as const,
    sighting: async () => [await createSighting(service), buildSighting()] as const,
  }[resource as 'timezone' | 'vessel' | 'sighting'];
  const [id, body] = await made();
  const path = `/${resource}/{id}` as '/sighting/{id}';
  const replaced = await api.PUT(path, { params: { path: { id } }, body: { ...body, version: 0 } as never });
  expect(replaced.response.status, `replace ${resource} ${id}`).to.equal(204);
  const deleted = await api.DELETE(path, { params: { path: { id } } });
  expect(deleted.response.status, `delete ${resource} ${id}`).to.equal(204);
  return id;
}

/** The event as its schema sees it: the `id` and `event` fields, `data` read as JSON. */
const asEvent = ({ id, event, data }: StreamEvent) =>
  ({ ...(id !== undefined && { id }), event, data: JSON.parse(data) as unknown });

describe('change feed events, each as openapi.yaml describes it', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  for (const feed of feeds) {
    it(`when GET ${feed} resumes from an unknown id and a record changes, then each event is as declared`, async () => {
      const resource = feed.split('/')[1]!;
      const at = pointer('paths', feed, 'get', 'responses', '200', 'content', 'text/event-stream', 'schema');
      const schema = `openapi#${at}`;
      const validate = ajv.getSchema(schema) ?? ajv.compile({ $ref: schema });
      const headers = { 'Last-Event-ID': unknownEventId };
      const stream = await openEventStream(service, feed, { user: 'admin', headers });
      try {
        expect(stream.response.status).to.equal(200);
        const id = await changeOne(service, resource);
        const ours = (event: StreamEvent) =>
          event.event !== 'reset' && (JSON.parse(event.data) as { id?: number }).id === id;
        await stream.until(({ events }) => events.filter(ours).length >= 3);
        expect(stream.events[0]?.event, 'the first event').to.equal('reset');
        expect(stream.events.filter(ours).map((event) => event.event)).to.deep.equal(['created', 'updated', 'deleted']);
        // Other tests' changes may arrive meanwhile: every event, theirs too, is held to the schema.
        const problems = stream.events.map(asEvent).filter((event) => !validate(event))
          .map((event) => `${JSON.stringify(event)}: ${ajv.errorsText(validate.errors)}`);
        expect(problems).to.deep.equal([]);
        // The schema tells events apart: a created event without its record is none of them.
        expect(validate({ id: '1', event: 'created', data: { id, version: 0 } })).to.equal(false);
      } finally {
        stream.close();
      }
    });
  }
});
