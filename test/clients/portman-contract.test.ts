// Portman turns openapi.yaml into a Postman collection with contract tests (status, media type, JSON schema, declared
// headers) and newman runs it against the service: a third reader of the contract, beside the validator and Prism.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openApiDocument, type OpenApiDocument } from '../../src/contract/document.ts';
import { sharedService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The operations whose answer with the contract's example values is a success, so each can be held to every check:
 * reads of the demo records (ids -1, their first version), each list in both views, and the sighting create (no body)
 * and its twin that answers the record. Updates and deletes are left out: examples cannot carry the version a record
 * has at run time.
 */
const operations = [
  'listTimezones', 'listTimezonesInDetailView', 'listVessels', 'listVesselsInDetailView', 'getVessel',
  'getVesselObservers',
  'listVesselVersions', 'getVesselVersion', 'listSightings', 'listSightingsInDetailView', 'getSighting',
  'listSightingVersions',
  'getSightingVersion', 'querySightingsByExample', 'querySightingsByExampleInListView', 'createSighting',
  'createSightingReturningRecord',
];
const creates = ['createSighting', 'createSightingReturningRecord'];
const checks = { statusSuccess: { enabled: true }, contentType: { enabled: true }, jsonBody: { enabled: true },
  schemaValidation: { enabled: true }, headersPresent: { enabled: true } };
const demoRecord = [{ key: 'id', value: '-1' }];

function portmanConfig(token: string) {
  return {
    version: 1.0,
    tests: {
      // createSighting's 201 declares no body, so Portman checks its status and headers (Location, ETag) only.
      contractTests: [{ openApiOperation: '*::/*', ...checks }],
    },
    overwrites: [
      ...['getVessel', 'getVesselObservers', 'listVesselVersions', 'getSighting', 'listSightingVersions'].map((id) => ({
        openApiOperationId: id, overwriteRequestPathVariables: demoRecord,
      })),
      ...['getVesselVersion', 'getSightingVersion'].map((id) => ({
        openApiOperationId: id, overwriteRequestPathVariables: [...demoRecord, { key: 'version', value: '0' }],
      })),
      {
        // The example's conditional headers would make a read a 304 or a 412; the list filters are examples, not the
        // demo data.
        openApiOperation: '*::/*',
        overwriteRequestHeaders: ['If-None-Match', 'If-Match', 'Idempotency-Key',
          'Last-Event-ID'].map((key) => ({ key, remove: true })),
      },
      ...creates.map((id) =>
        ({ openApiOperationId: id, overwriteRequestBody: [{ key: 'vessel.vesselId', value: -1, overwrite: true }] })),
    ],
    globals: { securityOverwrites: { bearer: { token } } },
  };
}

/**
 * openapi.yaml with only `operations`, as JSON. Not Portman's `--filterFile`: openapi-format's YAML reading turns
 * the id bounds (±(2^53−1), 16 digits) into text, and Portman then skips every schema check that has an id.
 */
function contractWithOnly(kept: string[]): OpenApiDocument {
  const document = structuredClone(openApiDocument);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation === 'object' && 'operationId' in operation
        && !kept.includes(operation.operationId as string)) delete item[method];
    }
    if (!Object.values(item).some((operation) => typeof operation === 'object' && 'operationId' in operation))
      delete document.paths[path];
  }
  return document;
}

/** Runs Portman in `cwd`: it writes its working files (`tmp/`) there. */
function portman(cwd: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [`${root}node_modules/@apideck/portman/bin/portman`, ...args],
      { cwd, maxBuffer: 32 * 1024 * 1024 });
    let output = '';
    child.stdout!.on('data', (chunk: string) => { output += chunk; });
    child.stderr!.on('data', (chunk: string) => { output += chunk; });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('Portman contract tests, run by newman @database-independent', function () {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'portman-')); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  it('when newman runs the collection Portman generates from openapi.yaml, ' +
    'then every contract test passes', async function () {
    const service = await sharedService();
    const files = { config: join(dir, 'portman-config.json'), contract: join(dir, 'openapi.json'),
      report: join(dir, 'newman.json'), newman: join(dir, 'newman-options.json') };
    await writeFile(files.config, JSON.stringify(portmanConfig(await tokenFor(service.realm, 'alice'))));
    await writeFile(files.contract, JSON.stringify(contractWithOnly(operations)));
    await writeFile(files.newman,
      JSON.stringify({ reporters: ['cli', 'json'], reporter: { json: { export: files.report } } }));
    const { code, output } = await portman(dir, [
      '--local', files.contract, '--baseUrl', service.api, '--portmanConfigFile', files.config,
      // The contract's own formats: ajv in newman knows only the standard ones.
      '--extraUnknownFormats', 'local-date-time', 'sighting', 'time-zone',
      '--output', join(dir, 'collection.json'), '--runNewman', '--newmanOptionsFile', files.newman,
    ]);
    const report = JSON.parse(await readFile(files.report, 'utf8').catch(() => '{}')) as NewmanReport;
    const executed = report.run?.executions ?? [];
    const requests = executed.map((e) => `${e.item.name}: ${e.response?.code}`);
    // newman's table of failed assertions is in `output`; it exits before its JSON report when one fails.
    expect(code, output).to.equal(0);
    // Every chosen operation ran, each with its assertions.
    expect(requests, requests.join('\n')).to.have.length(operations.length);
    expect(report.run?.stats?.assertions?.total ?? 0).to.be.greaterThan(operations.length * 3);
  });
});

interface NewmanReport {
  run?: {
    executions: { item: { name: string }; response?: { code: number } }[];
    stats?: { assertions?: { total: number } };
  };
}
