// Whatever a client sends, the answer is a contract error, never a 500: seeded random bodies at every operation.
import { expect } from 'chai';
import { Builder } from 'xml2js';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { seededRandom as random } from '../support/seeded-random.ts';
import { resources } from '../../src/resources/index.ts';
import { openApiDocument, type Reference, type Schema } from '../../src/contract/document.ts';
import { resolve } from '../../src/contract/references.ts';

const fields = ['sightingMemo', 'vessel', 'vesselId', 'vesselName', 'sightingTimezone', 'sightingDate', 'timezoneName', 'version', 'sightingId', 'en', 'pt_BR', '', '__proto__', 'constructor'];
const scalars = [null, true, 0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, '', ' ', 'x', '%_\\', '2026-02-30T10:00', '0000-01-01T00:00', '\ufeffab', '\ud800ab', 'Europe/Berlin', '+02:00', '\u0000', '😀'.repeat(50), 'a'.repeat(5000)];

function value(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.55) return scalars[Math.floor(next() * scalars.length)];
  if (pick < 0.7) return Array.from({ length: Math.floor(next() * 3) }, () => value(next, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, () => [fields[Math.floor(next() * fields.length)], value(next, depth + 1)]));
}

/**
 * Valid bodies, so that a mutation of one field gets past the schema into the handlers and the database: each
 * collection's create example in openapi.yaml (the operation's own, else its schema's), for every collection there is.
 */
const validBodies: Record<string, Record<string, unknown>> = Object.fromEntries(resources.map(({ name }) => {
  const content = openApiDocument.paths[`/${name}`]!.post!.requestBody!.content!['application/json']! as { example?: Record<string, unknown>; schema?: Schema | Reference };
  return [name, content.example ?? (content.schema && resolve(content.schema).example) as Record<string, unknown>];
}));

function body(next: () => number, resource: string, method: string): unknown {
  if (next() < 0.4) return value(next, 0);
  const base = { ...validBodies[resource], ...(method === 'PUT' && { version: Math.floor(next() * 3) }) };
  if (next() < 0.3) return base;
  return { ...base, [fields[Math.floor(next() * fields.length)]!]: value(next, 1) };
}

describe('no server errors', () => {
  let service: TestService;
  const xml = new Builder({ headless: true });

/** The value as an XML document; where no document can hold it (a name like `""`), JSON text sent as XML. */
function xmlOf(root: string, value: unknown): string {
  try {
    return xml.buildObject({ [root]: value });
  } catch {
    return JSON.stringify(value);
  }
}

const operations: [resource: string, method: string, path: string][] = [];
  before(async () => {
    service = await sharedService();
    // Records of this test's own to update, so the demo records other tests read stay as they are.
    for (const { name } of resources) {
      const created = await rawRequest(service, 'POST', `/${name}`, { user: 'admin', body: JSON.stringify(validBodies[name]), headers: { 'Content-Type': 'application/json' } });
      const location = created.headers.get('Location');
      expect(location, `a ${name} from its create example: ${created.status}`).to.be.a('string');
      operations.push([name, 'POST', `/${name}`], [name, 'POST', `/${name}/qbe`], [name, 'PUT', location!.slice(new URL(service.api).pathname.length)]);
    }
  });

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    it(`when 100 random or mutated JSON and XML bodies (seed ${seed}) go to every create, update and query, then none is answered 5xx`, async () => {
      const next = random(seed);
      for (let i = 0; i < 100; i += 1) {
        const [resource, method, path] = operations[Math.floor(next() * operations.length)]!;
        const value = body(next, resource, method);
        // A third of them as XML: the same value under the resource's root element, or that document cut short.
        const asXml = next() < 0.33;
        const text = asXml ? xmlOf(resource, value).slice(0, next() < 0.8 ? undefined : Math.floor(next() * 80)) : JSON.stringify(value);
        // rawRequest also fails the test when the answer is not documented in openapi.yaml.
        const response = await rawRequest(service, method, path, { user: 'admin', body: text, headers: { 'Content-Type': asXml ? 'text/xml' : 'application/json' } });
        expect(response.status, `${method} ${path} ${text.slice(0, 200)}`).to.be.below(500);
      }
    });
  }

  it('when odd query strings and paths are requested, then none is answered 5xx', async () => {
    const paths = ['/sighting?limit=1e3', '/sighting?after=abc', '/sighting?sightingDate=%ZZ', '/sighting?sightingId=1&sightingId=2',
      '/vessel/%E0%A4%A', '/timezone/..%2F..%2Fetc', '/sighting/-0', '/sighting?limit=', '/vessel?vesselName=x', '/sighting/qbe/1'];
    for (const path of paths) {
      const response = await rawRequest(service, 'GET', path, { user: 'admin' });
      expect(response.status, path).to.be.below(500);
    }
  });
});
