// Generated hostile input at every operation of openapi.yaml: never a 5xx, never a hang, nothing stored the contract
// forbids. Seeded (HOSTILE_SEED or HOSTILE_SEEDS), bounded (HOSTILE_REQUESTS per seed, a few thousand by default).
import { expect } from 'chai';
import fc from 'fast-check';
import { Builder } from 'xml2js';
import { sharedService, type TestService } from '../support/service.ts';
import { contractCheckedFetch, rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { openApiDocument, type Operation, type Schema } from '../../src/contract/document.ts';
import { parametersOf } from '../../src/contract/parameters.ts';
import { referencedNode } from '../../src/contract/references.ts';
import { deepJson, deepXml, foreignBytes, hostileHeader, hostileKey, hostileQueryValue, hostileSegment, hostileValue,
  prototypeNames } from '../support/hostile-arbitraries.ts';

// `HOSTILE_SEEDS` (`1,2,3,4,5`, what `npm run test:hostile` runs) or one `HOSTILE_SEED`: each seed is a run of its own.
const seeds = (process.env.HOSTILE_SEEDS ?? process.env.HOSTILE_SEED ?? '45').split(',').map(Number);
// Per seed.
const requests = Number(process.env.HOSTILE_REQUESTS ?? 2000);
// Longer than any honest answer takes on a loaded machine; an answer that takes longer is a hang.
const hangMs = 20_000;

interface ContractOperation { method: string; path: string; operation: Operation }
const operations: ContractOperation[] = Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
  Object.entries(item).filter(([, operation]) => typeof operation === 'object' && operation.responses)
    .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
const runsEach = Math.max(10, Math.ceil(requests / operations.length));

interface Sent { path: string; query: Array<[string,
  string]>; headers: Record<string, string>; body?: string | Uint8Array; type?: string }

/** Each collection's create example in openapi.yaml: a body that gets past the schema, for one field to be mutated. */
function createExample(resource: string): Record<string, unknown> {
  const content = openApiDocument.paths[`/${resource}`]!.post!.requestBody!.content!['application/json']! as
    { example?: Record<string, unknown>; schema?: Schema };
  return (content.example
    ?? (content.schema && referencedNode<Schema>(content.schema).example)) as Record<string, unknown>;
}

const xml = new Builder({ headless: true });
/** The value as an XML document under `root`; where none can hold it, the JSON text sent as XML. */
function xmlOf(root: string, value: unknown): string {
  try {
    return xml.buildObject({ [root]: value });
  } catch {
    return JSON.stringify(value);
  }
}

/** A request for `operation`, its `{id}` an own record's (`ownId`) or a segment naming none. */
function requestFor({ path, operation }: ContractOperation, ownId: number): fc.Arbitrary<Sent> {
  const resource = path.split('/')[1]!;
  const parameters = parametersOf(operation);
  const declaredQuery = parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const declaredHeaders = parameters.filter((p) => p.in === 'header').map((p) => p.name);
  const segment =
    fc.oneof({ weight: 3, arbitrary: fc.constant(String(ownId)) }, { weight: 1, arbitrary: hostileSegment });
  const version = fc.oneof(fc.constantFrom('0', '1'), hostileSegment);
  const query = fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...declaredQuery, 'x') },
    { weight: 1, arbitrary: fc.constantFrom(...prototypeNames) }),
    hostileQueryValue), { maxLength: declaredQuery.length ? 3 : 1 });
  const headers =
    fc.dictionary(fc.constantFrom(...declaredHeaders, 'Accept', 'Accept-Language'), hostileHeader, { maxKeys: 2 });
  const content = Object.keys(operation.requestBody?.content ?? {});
  const body = content.length === 0 ? fc.constant(undefined) : fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...content), fc.oneof(
      { weight: 3, arbitrary: fc.tuple(hostileKey, hostileValue)
        .map(([key, value]) => ({ ...createExample(resource), version: 0, [key]: value })) },
      { weight: 2, arbitrary: hostileValue },
      { weight: 1, arbitrary: fc.dictionary(hostileKey, hostileValue, { minKeys: 50, maxKeys: 400 }) },
    )).map(([type, value]) =>
      ({ type, body: type.includes('xml') ? xmlOf(resource, value) : JSON.stringify(value) })) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...content), deepJson, deepXml)
      .map(([type, json, xmlText]) => ({ type, body: type.includes('xml') ? xmlText(resource) : json })) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...content, 'text/plain', 'application/json; charset=latin1'),
      foreignBytes).map(([type, bytes]) => ({ type, body: bytes })) },
  );
  return fc.record({ id: segment, version, query, headers, body })
    .map(({ id, version: v, query: q, headers: h, body: b }) => ({
    path: path.replace('{id}', id).replace('{version}', v), query: q, headers: h, ...b,
  }));
}

describe('hostile input, generated from openapi.yaml', function () {
  this.timeout(Math.max(120_000, runsEach * operations.length * 200));
  let service: TestService;
  let authorization: string;
  const own: Record<string, number> = {};
  /** Every record the run created or changed, by collection: each is read back at the end. */
  const written = new Map<string, Set<string>>(['timezone', 'vessel', 'sighting'].map((r) => [r, new Set()]));

  before(async () => {
    service = await sharedService();
    authorization = `Bearer ${await tokenFor(service.realm, 'admin')}`;
    // Records of this suite's own to change and delete: the demo records other tests read stay as they are.
    for (const resource of ['timezone', 'vessel', 'sighting']) {
      const created = await rawRequest(service, 'POST', `/${resource}`, { user: 'admin',
        body: JSON.stringify(createExample(resource)), headers: { 'Content-Type': 'application/json' } });
      expect(created.status, `a ${resource} from its create example`).to.equal(201);
      own[resource] = Number(created.headers.get('Location')!.split('/').at(-1));
    }
  });

  async function send(method: string, sent: Sent, stream: boolean): Promise<{ status: number; text: string }> {
    const url = `${service.api}${sent.path}${sent.query.length ? `?${new URLSearchParams(sent.query)}` : ''}`;
    const init = {
      method,
      headers: { Authorization: authorization, ...sent.headers, ...(sent.type && { 'Content-Type': sent.type }) },
      body: sent.body, signal: AbortSignal.timeout(hangMs),
    } as RequestInit;
    // A change feed never ends: its status is the answer, then it is left. Everything else is checked against the
    // contract.
    const response = stream ? await fetch(url, init) : await contractCheckedFetch(service)(url, init);
    const text = stream ? (await response.body?.cancel(), '') : await response.text();
    // A create's new record (its Location) or a changed one (its path): the records the run leaves behind.
    const location = response.status === 201 ? response.headers.get('Location') : null;
    const changed = method !== 'GET' && response.status < 300 ? location ?? sent.path : undefined;
    const [resource, id] = changed?.split('/').slice(-2) ?? [];
    if (resource && id && !changed!.includes('/qbe')) written.get(resource)?.add(id);
    return { status: response.status, text };
  }

  for (const seed of seeds) for (const [index, contractOperation] of operations.entries()) {
    const { method, path } = contractOperation;
    it(`when ${runsEach} generated requests (seed ${seed}) go to ${method} ${path}, then none is a 5xx or hangs`,
      async () => {
      const resource = path.split('/')[1]!;
      const stream = path.endsWith('/events');
      await fc.assert(fc.asyncProperty(requestFor(contractOperation, own[resource]!), async (sent) => {
        let answer: { status: number; text: string };
        try {
          answer = await send(method, sent, stream);
        } catch (error) {
          throw new Error(`${method} ${sent.path}: ` +
            `no answer within ${hangMs} ms or a broken one: ${String(error)} ${String((error as Error).cause)}`);
        }
        expect(answer.status, `${method} ${sent.path} → ${answer.text.slice(0, 300)}`).to.be.below(500);
      }), { seed: seed + index, numRuns: runsEach, endOnFailure: true });
    });
  }

  it('when the generated requests are done, then every record they left is one the contract allows', async () => {
    // Read through the contract checker: a stored value the schema forbids (a control character, a lone surrogate,
    // a name under an empty key) fails the read. Every record written, however many: each is read by its id.
    let read = 0;
    for (const [resource, ids] of written) {
      for (const id of [String(own[resource]), ...ids]) {
        const record = await rawRequest(service, 'GET', `/${resource}/${id}`, { user: 'admin' });
        // 404: deleted later in the run; anything else the checker has held to the contract already.
        expect(record.status, `${resource} ${id}`).to.be.oneOf([200, 404]);
        read += 1;
      }
    }
    expect(read).to.be.at.least(3);
  });
});
