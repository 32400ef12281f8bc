// The breaking-change gate (`npm run contract:diff`) on a small fixture contract shaped like openapi.yaml: each test
// edits a copy and asserts every breaking change reported, with where and what (old → new).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';
import { compareContracts } from '../../tools/contract-diff/diff.ts';
import { Contract } from '../../tools/contract-diff/document.ts';
import type { Finding } from '../../tools/contract-diff/finding.ts';

type Json = Record<string, unknown>;

const fixtureFile = fileURLToPath(new URL('fixtures/gate-contract.yaml', import.meta.url));
const fixture = parse(readFileSync(fixtureFile, 'utf8')) as Json;

/** The node at `path` (keys, or indexes of arrays) of `document`. */
function at(document: Json, ...path: (string | number)[]): Json {
  return path.reduce<Json>((node, key) => node[key] as Json, document);
}

/** The fixture (first changed by `prepare`) compared with a copy changed by `edit`. */
function gate(edit: (contract: Json) => void, prepare: (contract: Json) => void = () => {}) {
  const base = structuredClone(fixture);
  prepare(base);
  const changed = structuredClone(base);
  edit(changed);
  return compareContracts(new Contract(base), new Contract(changed));
}

/** One line per finding of `level`: `operation | where | media | path | message`. */
function lines(findings: Finding[], level: Finding['level'] = 'breaking'): string[] {
  return findings.filter((finding) => finding.level === level)
    .map(({ operation, where, media, path, message }) => [operation, where, media, path, message].join(' | '));
}

const json = 'application/json';
const positional = ' (breaks calls by position in generated SDKs: kotlin, and java native\'s positional overloads; ' +
  'not java\'s request objects or typescript-axios with useSingleRequestParameter, as this project generates them)';
const history = 'GET /sighting/{id}/versions';
const schema = (contract: Json, name: string) => at(contract, 'components', 'schemas', name);

function removeProperty(contract: Json, name: string, property: string): void {
  const target = schema(contract, name);
  delete at(target, 'properties')[property];
  target.required = (target.required as string[]).filter((required) => required !== property);
}

describe('contract diff gate: what breaks a client', function () {
  it('when a list row property inside anyOf is removed, then the list and the query by example report it', function () {
    const { result, findings } = gate((c) => removeProperty(c, 'SightingListItem', 'sightingDate'));
    const removed = 'property removed (was `string (date-time)`, required)';
    expect({ result, breaking: lines(findings), compatible: lines(findings, 'compatible') }).to.deep.equal({
      result: 'INCOMPATIBLE',
      breaking: [
        `GET /sighting | response \`200\` | ${json} | [].anyOf[SightingListItem].sightingDate | ${removed}`,
        `POST /sighting/qbe | response \`200\` | ${json} | [].anyOf[SightingListItem].sightingDate | ${removed}`,
      ],
      compatible: [],
    });
  });

  it('when a list row property inside anyOf is retyped, then the message names old and new type, format', function () {
    const { findings } = gate((c) => {
      at(schema(c, 'SightingListItem'), 'properties').sightingDate = { type: 'integer' };
      at(schema(c, 'SightingDetail'), 'properties').sightingDate = { type: 'string', format: 'date' };
    });
    const rows = `response \`200\` | ${json} | [].anyOf`;
    expect(lines(findings).filter((line) => line.startsWith('GET /sighting |'))).to.deep.equal([
      `GET /sighting | ${rows}[SightingListItem].sightingDate | type \`string\` → \`integer\``,
      `GET /sighting | ${rows}[SightingDetail].sightingDate | format \`date-time\` → \`date\``,
    ]);
    expect(lines(findings).filter((line) => line.includes('[SightingListItem]'))).to.deep.equal([
      `GET /sighting | ${rows}[SightingListItem].sightingDate | type \`string\` → \`integer\``,
      `POST /sighting/qbe | ${rows}[SightingListItem].sightingDate | type \`string\` → \`integer\``,
    ]);
  });

  it('when a detail property is removed, then list, qbe, history, read and create each report it', function () {
    const { findings } = gate((c) => removeProperty(c, 'SightingDetail', 'sightingMemo'));
    const removed = 'property removed (was `string | null`)';
    expect(lines(findings)).to.deep.equal([
      `GET /sighting | response \`200\` | ${json} | [].anyOf[SightingDetail].sightingMemo | ${removed}`,
      `POST /sighting | response \`201\` | application/json | sightingMemo | ${removed}`,
      `POST /sighting/qbe | response \`200\` | application/json | [].anyOf[SightingDetail].sightingMemo | ${removed}`,
      `GET /sighting/{id} | response \`200\` | application/json | sightingMemo | ${removed}`,
      `${history} | response \`200\` | ${json} | [].record.oneOf[SightingDetail].sightingMemo | ${removed}`,
    ]);
  });

  it('when enum values are removed from what clients send, then each is named; one added is compatible', function () {
    const { findings } = gate((c) => {
      at(schema(c, 'SightingCreate'), 'properties', 'status').enum = ['seen', 'retracted'];
      at(c, 'components', 'parameters', 'view', 'schema').enum = ['detail'];
    });
    expect({ breaking: lines(findings), compatible: lines(findings, 'compatible') }).to.deep.equal({
      breaking: [
        'GET /sighting | query parameter `view` |  |  | enum value removed: `list`',
        'POST /sighting | request body | application/json | status | enum value removed: `confirmed`',
      ],
      compatible: ['POST /sighting | request body | application/json | status | enum value added: `retracted`'],
    });
  });

  it('when an enum value is added to what clients receive, then every answer carrying it reports it', function () {
    const { findings } = gate((c) => {
      at(schema(c, 'SightingDetail'), 'properties', 'status').enum = ['seen', 'confirmed', 'retracted'];
    });
    const added = 'enum value added: `retracted` (a value clients built from the old contract do not know)';
    expect(lines(findings).map((line) => line.split(' | ')[0])).to.deep.equal(
      ['GET /sighting', 'POST /sighting', 'POST /sighting/qbe', 'GET /sighting/{id}', 'GET /sighting/{id}/versions']);
    expect(lines(findings)[3]).to.equal(`GET /sighting/{id} | response \`200\` | application/json | status | ${added}`);
  });

  it('when a parameter is new and required or becomes required, then the gate says so with its type', function () {
    const { findings } = gate((c) => {
      const parameters = at(c, 'paths', '/sighting', 'get').parameters as Json[];
      parameters.push({ name: 'region', in: 'query', required: true, schema: { type: 'string', format: 'uuid' } });
      parameters[1]!.required = true;
    });
    expect(lines(findings)).to.deep.equal([
      'GET /sighting | query parameter `limit` |  |  | now required',
      'GET /sighting | query parameter `region` |  |  | new required parameter (`string (uuid)`)',
      `GET /sighting | parameters |  |  | positional order \`view, limit\` → \`limit, region, view\`${positional}`,
    ]);
  });

  it('when an optional parameter is put before a kept one, then positional SDK calls break; at the end it is ' +
    'compatible', function () {
    const added = { name: 'region', in: 'query', schema: { type: 'string' } };
    const before = gate((c) => { (at(c, 'paths', '/sighting', 'get').parameters as Json[]).unshift(added); });
    const after = gate((c) => { (at(c, 'paths', '/sighting', 'get').parameters as Json[]).push(added); });
    expect({ before: lines(before.findings), after: lines(after.findings), afterResult: after.result }).to.deep.equal({
      before: ['GET /sighting | parameters |  |  | positional order `view, limit` → `region, view, limit`' +
        positional],
      after: [],
      afterResult: 'COMPATIBLE',
    });
  });

  it('when an enum value is removed from what clients receive, then every answer carrying it breaks SDKs', function () {
    const { result, findings } = gate((c) => {
      const change = at(c, 'paths', '/sighting/{id}/versions', 'get', 'responses', '200', 'content', json, 'schema',
        'items', 'properties', 'change');
      change.enum = ['created', 'updated'];
    });
    expect({ result, breaking: lines(findings) }).to.deep.equal({
      result: 'INCOMPATIBLE',
      breaking: [`GET /sighting/{id}/versions | response \`200\` | ${json} | [].change | enum value removed: ` +
        '`deleted` (generated SDKs lose the constant: typescript-fetch, typescript-axios, python, java, go, kotlin, ' +
        'csharp)'],
    });
  });

  it('when a request body gains a required property or one becomes required, then both break', function () {
    const { findings } = gate((c) => {
      const create = schema(c, 'SightingCreate');
      create.required = ['sightingDate', 'status', 'observer'];
      at(create, 'properties').observer = { type: 'string' };
    });
    expect(lines(findings)).to.deep.equal([
      'POST /sighting | request body | application/json | status | now required',
      'POST /sighting | request body | application/json | observer | new required property (`string`)',
    ]);
  });

  it('when a response header is removed, required or not, or a header no longer required, then it breaks',
    function () {
      const listHeaders = (c: Json) => at(c, 'paths', '/sighting', 'get', 'responses', '200', 'headers');
      const optionalCount = (c: Json) => { listHeaders(c)['X-Total-Count'] = { schema: { type: 'integer' } }; };
      const { findings } = gate((c) => {
        delete at(c, 'paths', '/sighting/{id}', 'get', 'responses', '200', 'headers').ETag;
        at(c, 'paths', '/sighting', 'post', 'responses', '201', 'headers', 'Location').required = false;
      }, optionalCount);
      const optionalGone = gate((c) => { delete listHeaders(c)['X-Total-Count']; }, optionalCount);
      expect({ both: lines(findings), optional: lines(optionalGone.findings) }).to.deep.equal({
        both: [
          'POST /sighting | response `201` header `Location` |  |  | no longer required (may be absent)',
          'GET /sighting/{id} | response `200` header `ETag` |  |  | removed (was required)',
        ],
        optional: ['GET /sighting | response `200` header `X-Total-Count` |  |  | removed'],
      });
    });

  it('when bounds move, then a request narrowed or a response widened breaks, and the opposite does not', function () {
    const { findings } = gate((c) => {
      at(schema(c, 'SightingCreate'), 'properties', 'sightingMemo').maxLength = 100;
      at(schema(c, 'SightingCreate'), 'properties', 'tags', 'items').maxLength = 10;
      at(schema(c, 'SightingDetail'), 'properties', 'sightingMemo').maxLength = 300;
      at(c, 'paths', '/sighting', 'get').parameters = [{ $ref: '#/components/parameters/view' },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } }];
    });
    const widened = 'maxLength `200` → `300` (widened)';
    expect({ breaking: lines(findings), compatible: lines(findings, 'compatible') }).to.deep.equal({
      breaking: [
        `GET /sighting | response \`200\` | application/json | [].anyOf[SightingDetail].sightingMemo | ${widened}`,
        'POST /sighting | request body | application/json | sightingMemo | maxLength `200` → `100` (narrowed)',
        'POST /sighting | request body | application/json | tags[] | maxLength `20` → `10` (narrowed)',
        `POST /sighting | response \`201\` | application/json | sightingMemo | ${widened}`,
        `POST /sighting/qbe | response \`200\` | application/json | [].anyOf[SightingDetail].sightingMemo | ${widened}`,
        `GET /sighting/{id} | response \`200\` | application/json | sightingMemo | ${widened}`,
        `${history} | response \`200\` | ${json} | [].record.oneOf[SightingDetail].sightingMemo | ${widened}`,
      ],
      compatible: ['GET /sighting | query parameter `limit` |  |  | maximum `100` → `1000` (widened)'],
    });
  });

  it('when the values or keys of a map, or a property inside allOf, change, then it is found', function () {
    const { findings } = gate((c) => {
      at(schema(c, 'SightingDetail'), 'properties', 'names').additionalProperties = { type: 'integer' };
      at(schema(c, 'SightingDetail'), 'properties', 'names').propertyNames = { pattern: '^[a-z]{2,3}$' };
      at(schema(c, 'SightingExample'), 'allOf', 1, 'properties', 'sightingMemo').maxLength = 10;
    });
    const chosen = (line: string) =>
      line.startsWith('GET /sighting/{id} |') || line.startsWith('POST /sighting/qbe | request');
    expect(lines(findings).filter(chosen)).to.deep.equal([
      'POST /sighting/qbe | request body | application/json | sightingMemo | maxLength none → `10` (narrowed)',
      'GET /sighting/{id} | response `200` | application/json | names.{*} | type `string` → `integer`',
      'GET /sighting/{id} | response `200` | application/json | names(key) | pattern `^[a-z]{2}$` → `^[a-z]{2,3}$`',
    ]);
  });

  it('when a bound beside a $ref is narrowed, then it is compared with the schema referred to', function () {
    const memo = (maxLength: number) => (c: Json) => {
      at(c, 'components', 'schemas').Memo = { type: 'string' };
      at(schema(c, 'SightingCreate'), 'properties').sightingMemo = { $ref: '#/components/schemas/Memo', maxLength };
    };
    const { findings } = gate(memo(100), memo(200));
    expect(lines(findings)).to.deep.equal([
      'POST /sighting | request body | application/json | sightingMemo | maxLength `200` → `100` (narrowed)',
    ]);
  });

  it('when an operation, a status or a media type is removed, then each breaks and is named', function () {
    const { findings } = gate((c) => {
      delete at(c, 'paths', '/sighting/{id}/versions').get;
      delete at(c, 'paths', '/sighting/{id}', 'get', 'responses')['404'];
      const detail = { $ref: '#/components/schemas/SightingDetail' };
      at(c, 'paths', '/sighting', 'post', 'responses', '201').content = { 'text/xml': { schema: detail } };
    });
    expect(lines(findings)).to.deep.equal([
      'POST /sighting | response `201` | application/json |  | media type removed',
      'GET /sighting/{id} | response `404` |  |  | removed',
      'GET /sighting/{id}/versions |  |  |  | operation removed (`getSightingHistory`)',
    ]);
  });

  it('when a security requirement is added, then it breaks; a new alternative does not', function () {
    const { findings } = gate((c) => {
      at(c, 'paths', '/sighting', 'get').security = [{ bearer: [], apiKey: [] }];
      at(c, 'paths', '/sighting', 'post').security = [{ bearer: [] }, { apiKey: [] }];
    });
    expect({ breaking: lines(findings), compatible: lines(findings, 'compatible') }).to.deep.equal({
      breaking: [
        'GET /sighting | security |  |  | security `bearer` → `bearer + apiKey`: a client using `bearer` is refused now'
      ],
      compatible: ['POST /sighting | security |  |  | security `bearer` → `bearer | apiKey`'],
    });
  });

  it('when a schema refers to itself, then a change inside it is reported once and the walk ends', function () {
    const { findings } = gate((c) => { at(schema(c, 'Tree'), 'properties').label = { type: 'integer' }; }, (c) => {
      const children = { type: 'array', items: { $ref: '#/components/schemas/Tree' } };
      at(c, 'components', 'schemas').Tree = { type: 'object', properties: { label: { type: 'string' }, children } };
      const read = at(c, 'paths', '/sighting/{id}', 'get', 'responses', '200', 'content', json);
      read.schema = { $ref: '#/components/schemas/Tree' };
    });
    const retyped = 'type `string` → `integer`';
    expect(lines(findings)).to.deep.equal([`GET /sighting/{id} | response \`200\` | ${json} | label | ${retyped}`]);
  });
});

describe('contract diff gate: the changelog', function () {
  it('when a change repeats in media types and operations, then one line says it under those operations', function () {
    const { changelog } = gate((c) => {
      removeProperty(c, 'SightingListItem', 'sightingDate');
      delete at(c, 'paths', '/sighting/{id}/versions').get;
      const notFound = at(c, 'paths', '/sighting/{id}', 'get', 'responses', '404');
      notFound.headers = { 'Retry-After': { schema: { type: 'integer' } } };
    }, (c) => {
      const content = at(c, 'paths', '/sighting', 'get', 'responses', '200', 'content');
      content['text/xml'] = content[json];
    });
    const removed = '`[].anyOf[SightingListItem].sightingDate`: property removed (was `string (date-time)`, required)';
    expect(changelog).to.equal([
      '### Breaking changes (4 in 3 operations)',
      '#### `GET /sighting`',
      `- response \`200\` \`application/json\`, \`text/xml\` ${removed}`,
      '#### `POST /sighting/qbe`',
      `- response \`200\` \`application/json\` ${removed}`,
      '#### `GET /sighting/{id}/versions`',
      '- operation removed (`getSightingHistory`)',
      '### Compatible changes (1 in 1 operation)',
      '#### `GET /sighting/{id}`',
      '- response `404` header `Retry-After`: added',
    ].join('\n\n'));
  });

  it('when all operations gain a header and a security alternative, then a shared line is said once', function () {
    const { changelog } = gate((c) => {
      for (const item of Object.values(at(c, 'paths')) as Json[]) {
        for (const operation of Object.values(item).filter((value) => !Array.isArray(value)) as Json[]) {
          for (const response of Object.values(at(operation, 'responses')) as Json[]) {
            response.headers = { ...(response.headers as Json | undefined), 'X-Request-Id': { schema: {} } };
          }
        }
      }
      c.security = [{ bearer: [] }, { apiKey: [] }];
    });
    expect(changelog).to.equal([
      '### Compatible changes (11 in 5 operations)',
      '#### `GET /sighting`, `POST /sighting/qbe`, `GET /sighting/{id}/versions`',
      '- response `200` header `X-Request-Id`: added',
      '#### Every operation (5)',
      '- security: security `bearer` → `bearer | apiKey`',
      '#### `POST /sighting`',
      '- response `201` header `X-Request-Id`: added',
      '#### `GET /sighting/{id}`',
      '- response `200`, `404` header `X-Request-Id`: added',
    ].join('\n\n'));
  });
});

describe('contract diff gate: what does not break a client', function () {
  it('when a response header becomes required, then it is compatible and said', function () {
    const listHeaders = (c: Json) => at(c, 'paths', '/sighting', 'get', 'responses', '200', 'headers');
    const { result, findings } = gate((c) => {
      listHeaders(c)['X-Total-Count'] = { required: true, schema: { type: 'integer' } };
    }, (c) => { listHeaders(c)['X-Total-Count'] = { schema: { type: 'integer' } }; });
    expect({ result, compatible: lines(findings, 'compatible') }).to.deep.equal({ result: 'COMPATIBLE',
      compatible: ['GET /sighting | response `200` header `X-Total-Count` |  |  | now required (always sent)'] });
  });

  it('when an optional request property, a response property and an operation are added, then it passes', function () {
    const { result, findings } = gate((c) => {
      at(schema(c, 'SightingCreate'), 'properties').observer = { type: 'string' };
      at(schema(c, 'SightingDetail'), 'properties').observer = { type: 'string' };
      const answer = { '200': { description: 'The vessels.' } };
      at(c, 'paths')['/vessel'] = { get: { operationId: 'listVessels', responses: answer } };
    });
    expect({ result, breaking: lines(findings), compatible: lines(findings, 'compatible').length }).to.deep.equal(
      { result: 'COMPATIBLE', breaking: [], compatible: 7 });
    expect(lines(findings, 'compatible'))
      .to.include('POST /sighting | request body | application/json | observer | new optional property (`string`)');
  });

  it('when only a description changes, then it is METADATA with nothing listed', function () {
    const { result, findings } = gate((c) => { at(c, 'paths', '/sighting', 'get').description = 'Now described.'; });
    expect({ result, findings }).to.deep.equal({ result: 'METADATA', findings: [] });
  });

  it('when a path parameter is renamed, then the operations are the same ones', function () {
    const { result } = gate((c) => {
      const paths = at(c, 'paths');
      paths['/sighting/{sightingId}'] = paths['/sighting/{id}'];
      delete paths['/sighting/{id}'];
      (at(paths, '/sighting/{sightingId}', 'parameters') as unknown as Json[])[0]!.name = 'sightingId';
    });
    expect(result).to.equal('METADATA');
  });
});
