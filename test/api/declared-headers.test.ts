// Every header an answer carries is declared on that answer in openapi.yaml, and every required one is sent: a walk of
// every operation of the contract (a new one is walked too), through the statuses a client can reach.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startService, type TestService } from '../support/service.ts';
import { startTestRealm, type TestRealm } from '../support/forged-tokens.ts';
import { headerProblems } from '../support/declared-headers.ts';
import { contractCheckedFetch } from '../support/api-client.ts';
import { answeringOperation } from '../support/contract-paths.ts';
import { buildSighting, buildTimezone, buildVessel, idFromLocation } from '../support/fixtures.ts';
import { openApiDocument, type Operation, type Schema } from '../../src/contract/document.ts';
import { parametersOf } from '../../src/contract/parameters.ts';
import { referencedNode } from '../../src/contract/references.ts';
import { deprecationsOf } from '../../src/contract/deprecations.ts';

const origin = 'https://pages.example';
const rateLimit = 40;
const noSuchId = '9007199254740991';
const operations = Object.entries(openApiDocument.paths).flatMap(([template, item]) => Object.entries(item)
  .filter(([, operation]) => typeof operation === 'object' && operation.responses)
  .map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })));
// The statuses a walk reaches wherever an operation declares them; the others (409, 413, 422, 500, 503 …) need a
// state of their own, and their own tests check them against the contract.
const reachable = ['304', '400', '401', '403', '404', '406', '412', '415', '428', '429', '431'];
const unique: Record<string, () => object> = { timezone: buildTimezone, vessel: buildVessel, sighting: buildSighting };
const allRoles = ['reader', 'writer', 'admin'];

interface Body { type: string; value: Record<string, unknown> | Array<Record<string, unknown>> }

/** The body a request sends: the contract's example of it (a test fails on a request body without one). */
function exampleBody(operation: Operation): Body | undefined {
  const [type, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  if (!type) return undefined;
  const { example, schema } = content as { example?: Record<string, unknown>; schema?: Schema };
  const value = example ?? (schema && referencedNode<Schema>(schema).example) as Record<string, unknown> | undefined;
  if (!value) throw new Error(`no example for the request body of ${operation.operationId}`);
  return { type, value };
}

interface Sent { path: string; query?: string; headers: Record<string, string>; body?: string }

const without = (headers: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));

/** The members of `from` that `like` has too. */
function pick(from: object, like: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(from).filter(([key]) => Object.hasOwn(like, key)));
}

describe('declared headers, over a walk of every operation in openapi.yaml', function () {
  this.timeout(300_000);
  let realm: TestRealm;
  let service: TestService;

  before(async () => {
    realm = await startTestRealm();
    service = await startService({
      KEYCLOAK_URL: realm.url, RATE_LIMIT_PER_MINUTE: String(rateLimit), CORS_ORIGINS: origin,
    });
  });
  after(async () => {
    await service?.stop();
    await realm?.close();
  });

  const bearer = async (subject: string, roles: string[]) =>
    `Bearer ${await realm.token({ sub: subject, preferred_username: subject, realm_access: { roles } })}`;

  /** A new record of `resource` from the create example of openapi.yaml, its unique values made new. */
  async function created(resource: string, authorization: string): Promise<string> {
    const body = { ...exampleBody(openApiDocument.paths[`/${resource}`]!.post!)!.value, ...unique[resource]!() };
    const response = await fetch(`${service.api}/${resource}`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, `a new ${resource}: ${await response.clone().text()}`).to.equal(201);
    return String(idFromLocation(response.headers.get('location')));
  }

  for (const { method, template, operation } of operations) {
    it(`when ${method} ${template} is called as a client can, then each answer sends what it declares`, async () => {
      const problems: string[] = [];
      const statuses = new Set<string>();
      let announced = false;
      /** Sends one request and compares its answer's headers with the contract's; a stream's body is left unread. */
      const send = async (sent: Sent): Promise<Response> => {
        const url = `${service.api}${sent.path}${sent.query ? `?${sent.query}` : ''}`;
        const init = { method, headers: { Origin: origin, ...sent.headers }, body: sent.body };
        const streams = sent.headers.Accept === 'text/event-stream';
        const response = streams ? await fetch(url, init) : await contractCheckedFetch(service)(url, init);
        if (streams && response.status === 200) await response.body?.cancel();
        else await response.arrayBuffer();
        // A request the contract answers as another operation (`Prefer`, `view`) is held to that operation's answer.
        const asked = { search: sent.query, headers: new Headers(sent.headers) };
        const answering = answeringOperation(method, sent.path, asked) ?? { template, method };
        problems.push(...headerProblems(answering.template, answering.method, response.status, response.headers));
        statuses.add(String(response.status));
        announced ||= response.headers.has('deprecation');
        return response;
      };

      const authorization = await bearer(randomUUID(), allRoles);
      const resource = template.split('/')[1]!;
      const parameters = parametersOf(operation);
      const has = (name: string) => parameters.some((p) => p.name.toLowerCase() === name.toLowerCase());
      const preference = (parameters.find((p) => p.name === 'Prefer') as { example?: string } | undefined)?.example;
      const success = Object.keys(operation.responses!).find((status) => status.startsWith('2'))!;
      const successContent =
        (referencedNode(operation.responses![success]) as { content?: Record<string, unknown> }).content;
      const accept = Object.keys(successContent ?? { 'application/json': {} })[0]!;
      const body = exampleBody(operation);
      // A deprecated query parameter (`view`) is sent with its own view, so its announcement is walked too.
      const deprecatedQuery = parameters.filter((p) => p.in === 'query' && (p as { deprecated?: boolean }).deprecated)
        .map((p) => `${p.name}=${(referencedNode(p.schema) as { enum?: string[] } | undefined)?.enum?.[0]}`);
      const shared = template.includes('{id}') ? await created(resource, authorization) : '';
      const pathOf = (id: string) => template.replace('{id}', id).replace('{version}', '0');
      /** A request the contract accepts: a new record (or the shared one), the declared preference, the example. */
      const valid = async (fresh = true): Promise<Sent> => {
        const id = template.includes('{id}') ? (fresh ? await created(resource, authorization) : shared) : '';
        const renewed = body && fresh && body.type.includes('json');
        // A batch's example is an array of records: each is made new.
        const renew = (record: Record<string, unknown>) => ({ ...record, ...pick(unique[resource]!(), record) });
        const value = !renewed ? body?.value : Array.isArray(body.value) ? body.value.map(renew) : renew(body.value);
        return {
          path: pathOf(id),
          query: [...(has('limit') ? ['limit=1'] : []), ...deprecatedQuery].join('&') || undefined,
          headers: {
            Authorization: authorization, Accept: accept,
            ...(preference && { Prefer: preference }),
            ...(has('If-Match') && { 'If-Match': '"0"' }),
            ...(body && { 'Content-Type': body.type }),
          },
          body: value && JSON.stringify(value),
        };
      };

      await send(await valid());
      const plain = await valid();
      await send({ ...plain, headers: without(plain.headers, 'Prefer') });
      // A client may state any preference, declared or not: what the service then applies must be declared too.
      const preferring = await valid();
      await send({ ...preferring, headers: { ...preferring.headers, Prefer: 'return=representation, count=exact' } });
      // A deprecated parameter or body property in use: the answer announces it.
      for (const { element } of deprecationsOf(operation).filter(({ element }) => element !== 'operation')) {
        const [kind, name] = element.split(' ') as [string, string];
        const sent = await valid();
        if (kind === 'property') sent.body = JSON.stringify({ ...JSON.parse(sent.body ?? '{}'), [name]: 0 });
        if (kind === 'property' && name === 'version') sent.headers = without(sent.headers, 'If-Match');
        if (kind === 'query') sent.query = `${sent.query ? `${sent.query}&` : ''}${name}=1`;
        await send(sent);
      }
      // The same create again under one Idempotency-Key: the stored answer is replayed, its headers too.
      if (has('Idempotency-Key')) {
        const keyed = await valid();
        keyed.headers['Idempotency-Key'] = `"${randomUUID()}"`;
        for (const time of [1, 2]) expect((await send(keyed)).status, `idempotent create ${time}`).to.be.below(300);
      }
      // A write of a stale version.
      if (operation.responses!['409'] && body && Object.hasOwn(body.value, 'version')) {
        const stale = await valid();
        await send({ ...stale, body: JSON.stringify({ ...JSON.parse(stale.body!), version: 999_999 }) });
      }
      const refused = await valid(false);
      const refusedWith = (headers: Record<string, string>) =>
        send({ ...refused, headers: { ...refused.headers, ...headers } });
      await send({ ...refused, headers: without(refused.headers, 'Authorization') });
      await refusedWith({ Authorization: await bearer(randomUUID(), []) });
      await send({ ...refused, query: 'unknownParameter=1' });
      await refusedWith({ Accept: 'image/png' });
      await send({ ...refused, query: `unknownParameter=${'x'.repeat(20_000)}` });
      if (template.includes('{id}')) await send({ ...refused, path: pathOf(noSuchId) });
      if (body) await send({ ...refused, headers: { ...refused.headers, 'Content-Type': 'text/plain' }, body: 'x' });
      if (has('If-Match')) await refusedWith({ 'If-Match': '"999999"' });
      if (operation.responses!['428']) await send({ ...refused, headers: without(refused.headers, 'If-Match') });
      if (has('If-None-Match')) {
        await refusedWith({ 'If-None-Match': (await send(await valid(false))).headers.get('etag')! });
      }
      // One caller beyond the limit: its window may have just turned, so it tries until refused (the limit bounds it).
      const exhausted = await bearer('exhausted-caller', allRoles);
      for (let tries = 0; tries <= rateLimit + 1; tries += 1) {
        if ((await refusedWith({ Authorization: exhausted })).status === 429) break;
      }
      // Last, as it may change the shared record: the contract's example as it is, twice (a query by example that
      // matches the demo records; a create whose unique value is then taken).
      for (let time = 0; time < 2; time += 1) await send(await valid(false));

      expect(problems, 'headers against the contract').to.deep.equal([]);
      expect([...statuses].some((status) => status.startsWith('2')), `a success among ${[...statuses]}`).to.equal(true);
      const unreached = reachable.filter((status) => operation.responses![status] && !statuses.has(status));
      expect(unreached, `declared statuses not reached (reached ${[...statuses]})`).to.deep.equal([]);
      expect(announced, 'a deprecation announced').to.equal(deprecationsOf(operation).length > 0);
    });
  }
});
