// Where openapi.yaml and the service once disagreed, they agree: what the contract allows is answered, what it refuses
// is the contract's 400 on that field with the rule's message key (issue 30: empty filters, impossible date-times).
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, buildTimezone, buildVessel } from '../support/fixtures.ts';
import { contractProblems } from '../support/contract.ts';
import { throughContractProxy } from '../support/contract-proxy.ts';
import { tokenFor, type User } from '../support/tokens.ts';
import { openApiDocument, type Schema } from '../../src/contract/document.ts';
import { parametersOf } from '../../src/contract/parameters.ts';
import { referencedNode } from '../../src/contract/references.ts';
import { componentSchema } from '../../src/contract/schemas.ts';
import { contractSchemas } from '../../src/validation/schema-check.ts';
import { normalizeLocalDateTime } from '../../src/validation/formats.ts';
import { localDateTimeText } from '../../src/db/local-date-time-text.ts';

const json = { 'Content-Type': 'application/json' };
const filterEmpty =
  { message: 'An empty filter matches nothing: leave the parameter out or give a value.', key: 'error.filter.empty' };
const dateInvalid = { message: 'The date must be a local date-time such as 2026-11-22T21:30:00.000, without offset.',
  key: 'sighting.date.invalid' };
const idInvalid = { message: 'An id must be a whole number.', key: 'error.id.invalid' };
const typeWrong = { message: 'This value has the wrong type.', key: 'error.field.type' };

const dateTimePattern = new RegExp(componentSchema('LocalDateTime')!.pattern as string, 'u');
// Each breaks exactly one component's range; the pattern alone refuses them.
const impossibleByPattern = ['2026-17-01T00:00', '2026-00-01T00:00', '2026-11-00T00:00',
  '2026-11-32T00:00', '2026-11-22T96:00',
  '2026-11-22T24:00', '2026-11-22T21:60', '2026-11-22T21:30:60', '0000-01-01T00:00'];
// Possible by component, impossible as a calendar date: the format's check, with the same message.
const impossibleByCalendar = ['2026-02-29T00:00', '2026-02-30T10:00', '2026-04-31T00:00', '1900-02-29T00:00'];
const possible = ['0001-01-01T00:00', '2024-02-29T23:59:59.999', '2026-11-22T21:30', '2026-11-22T21:30:00',
  '2026-12-31T00:00:59.000',
  '9999-12-31T23:59:59.999'];

describe('contract agreement', () => {
  describe('the contract alone', () => {
    it('when any query parameter of any operation is sent empty, ' +
      'then its schema refuses it, as the request validator does', () => {
      const acceptingEmpty = Object.entries(openApiDocument.paths)
        .flatMap(([path, item]) => Object.entries(item).flatMap(([method, operation]) =>
        parametersOf(operation)
          .filter((p) => p.in === 'query' && contractSchemas.compile(referencedNode(p.schema!) as Schema)(''))
          .map((p) => `${method.toUpperCase()} ${path}?${p.name}=`)));
      expect(acceptingEmpty).to.deep.equal([]);
    });

    it('when a date-time has a month, day, hour, minute or second out of range, ' +
      'then the LocalDateTime pattern refuses it', () => {
      expect(impossibleByPattern.filter((text) => dateTimePattern.test(text))).to.deep.equal([]);
    });

    it('when a date-time is possible, then the pattern and the local-date-time format both accept it', () => {
      expect(possible.filter((text) => !dateTimePattern.test(text) || normalizeLocalDateTime(text) === undefined))
        .to.deep.equal([]);
    });

    it('when a day does not exist in its month, then the pattern lets it through and the format refuses it', () => {
      expect(impossibleByCalendar.map((text) => [dateTimePattern.test(text), normalizeLocalDateTime(text)]))
        .to.deep.equal(impossibleByCalendar.map(() => [true, undefined]));
    });

    it('when the database hands back a timestamp, then the text the service answers matches the pattern', () => {
      const stored = ['2026-11-22 21:30:00', '2026-11-22 21:30:00.5', '0001-01-01 00:00:00', '9999-12-31T23:59:59.999',
        new Date('2024-02-29T23:59:59.999Z')];
      expect(stored.map(localDateTimeText).filter((text) => !dateTimePattern.test(text!))).to.deep.equal([]);
    });
  });

  describe('the service', () => {
    let service: TestService;
    before(async () => { service = await sharedService(); });

    async function answer(method: string, path: string, body?: unknown) {
      const response = await rawRequest(service, method, path,
        body === undefined ? {} : { headers: json, body: JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) as unknown : undefined };
    }

    for (const [path, field] of [['/sighting?sightingMemo=', 'sightingMemo'],
      ['/sighting?sightingTimezone=', 'sightingTimezone'],
      ['/timezone?timezoneName=', 'timezoneName'], ['/sighting?sightingMemo=&vesselId=-1', 'sightingMemo']] as const) {
      it(`when a list is asked for ${path}, ` +
        `then it is a 400 on ${field} saying an empty filter matches nothing`, async () => {
        expect(await answer('GET', path)).to.deep.equal({ status: 400, body: { [field]: filterEmpty } });
      });
    }

    it('when a query by example narrows by an empty filter, then it is the same 400', async () => {
      expect(await answer('POST', '/sighting/qbe?sightingTimezone=', {}))
        .to.deep.equal({ status: 400, body: { sightingTimezone: filterEmpty } });
    });

    // The request validator refuses every empty query value before the schema is checked: the answer still names the
    // rule of that parameter's schema, as for any other value the schema refuses.
    for (const [path, body] of [['/sighting?sightingId=', { sightingId: idInvalid }],
      ['/sighting?vesselId=', { vesselId: idInvalid }],
      ['/sighting?sightingDate=', { sightingDate: dateInvalid }],
      ['/sighting?sightingDateFrom=', { sightingDateFrom: dateInvalid }],
      ['/sighting?mine=', { mine: typeWrong }]] as const) {
      it(`when a list is asked for ${path}, then it is a 400 with the message of that parameter's rule`, async () => {
        expect(await answer('GET', path)).to.deep.equal({ status: 400, body });
      });
    }

    it('when a text filter holds a tab (plain text allows it), then it is answered, not refused', async () => {
      expect(await answer('GET', '/sighting?sightingMemo=a%09b')).to.deep.equal({ status: 200, body: [] });
    });

    for (const date of [...impossibleByPattern, ...impossibleByCalendar]) {
      it(`when ${date} is filtered by or sent in a create, then both are a 400 on sightingDate`, async () => {
        expect(await answer('GET', `/sighting?sightingDate=${date}`))
          .to.deep.equal({ status: 400, body: { sightingDate: dateInvalid } });
        expect(await answer('POST', '/sighting', buildSighting({ sightingDate: date })))
          .to.deep.equal({ status: 400, body: { sightingDate: dateInvalid } });
      });
    }

    it('when every possible date-time is filtered by, then each is answered 200', async () => {
      const statuses = await Promise.all(possible.map(async (date) =>
        (await answer('GET', `/sighting?sightingDateFrom=${date}&limit=1`)).status));
      expect(statuses).to.deep.equal(possible.map(() => 200));
    });
  });
});

// The create answers as generated clients and conformance tools read them (issue 42): every collection's create and
// its `create…ReturningRecord` twin, with and without `Prefer: return=representation`. Each request goes through Prism
// (the contract proxy: an answer that breaks openapi.yaml throws) and its answer is held to Schemathesis' four
// response checks by contract.ts: a declared status, a body only where content is declared and of a declared media
// type, the declared headers (required ones present, each by its schema), and the body by its schema.
describe('the create answers, as Prism and the contract checks read them', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const creates = Object.entries(openApiDocument.paths).flatMap(([path, item]) => {
    const plain = item.post?.['x-representation-operation'] === undefined ? [] : [path];
    return plain.map((collection) => {
      const [twin] = Object.entries(openApiDocument.paths)
        .filter(([, other]) => other.post?.operationId === item.post!['x-representation-operation']);
      return { collection, twin: twin![0] };
    });
  });
  const bodies: Record<string, () => unknown> =
    { '/sighting': () => buildSighting(), '/vessel': () => buildVessel(), '/timezone': () => buildTimezone() };
  const users: Record<string, User> = { '/sighting': 'alice', '/vessel': 'admin', '/timezone': 'admin' };

  it('when the contract is read, ' +
    'then each of the three collections has a create and a twin that answers the record', () => {
    expect(creates).to.deep.equal(['/timezone', '/vessel', '/sighting'].map((collection) =>
      ({ collection, twin: `${collection}/detail-view` })));
  });

  for (const { collection, twin } of creates) {
    for (const [path, prefer, withRecord] of [[collection, false, false], [collection, true, true], [twin, false, true],
      [twin, true, true]] as const) {
      it(`when POST ${path} is sent ${prefer ? 'with' : 'without'} Prefer, ` +
        `then 201 ${withRecord ? 'with' : 'without'} the record, as declared`, async () => {
        const headers = { ...json, Authorization: `Bearer ${await tokenFor(service.realm, users[collection]!)}`,
          ...prefer && { Prefer: 'return=representation' } };
        const request = new Request(`${service.api}${path}`,
          { method: 'POST', headers, body: JSON.stringify(bodies[collection]!()) });
        const response = service.proxy ? await throughContractProxy(service.proxy, service.api, request)
          : await fetch(request);
        const text = await response.text();
        const body = text === '' ? undefined : JSON.parse(text) as Record<string, unknown>;
        const observed = { method: 'POST', path, status: response.status, headers: response.headers, body,
          asked: { headers: request.headers } };
        const location = response.headers.get('location') ?? '';
        expect({
          status: response.status,
          location: location.replace(/-?\d+$/, '<id>'),
          id: body === undefined ? 'no body'
            : body[`${collection.slice(1)}Id`] === Number(/-?\d+$/.exec(location)?.[0]),
          applied: response.headers.get('preference-applied'),
          problems: contractProblems(observed, body === undefined ? 'none' : 'json'),
        }).to.deep.equal({
          status: 201,
          location: `${new URL(service.api).pathname}${collection}/<id>`,
          id: withRecord ? true : 'no body',
          applied: prefer ? 'return=representation' : null,
          problems: [],
        });
      });
    }
  }
});
