// No body a client can send keeps memory once it is answered: the heap after GC comes back to where it started.
import { expect } from 'chai';
import { backend } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { spawnService, listening, type ServiceProcess } from '../support/service-process.ts';
import { inspect, type Inspector } from '../support/inspector.ts';

const megabyte = 1024 * 1024;
const json = 'application/json';

/** Hostile bodies under the 64 KB limit: deep, wide, long and many-keyed, as JSON and XML. */
const hostile: Array<[method: string, path: string, type: string, body: string]> = [
  ['POST', '/sighting/qbe', json, `{"vessel":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`],
  ['POST', '/sighting', json, `{"vessel":${'['.repeat(30_000)}1${']'.repeat(30_000)}}`],
  ['PUT', '/vessel/-2', json, `{"vesselName":${'{"en":'.repeat(9_000)}"x"${'}'.repeat(9_000)}}`],
  ['PATCH', '/sighting/-1', 'application/merge-patch+json',
    `{"sightingMemo":${'['.repeat(30_000)}${']'.repeat(30_000)}}`],
  ['POST', '/sighting', 'application/xml', `<sighting>${'<a>'.repeat(8_000)}x${'</a>'.repeat(8_000)}</sighting>`],
  ['POST', '/vessel/qbe', json,
    JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])))],
  ['POST', '/vessel', json,
    JSON.stringify({ vesselName: Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`l${i}`, 'x'])) })],
  ['POST', '/sighting', json, JSON.stringify({ sightingMemo: '\u{1F6F8}'.repeat(15_000), vessel: { vesselId: -1 } })],
  ['POST', '/sighting/qbe', json, JSON.stringify({ sightingMemo: `%_\\${'x'.repeat(60_000)}` })],
  ['POST', '/sighting', json, `[${'1,'.repeat(30_000)}1]`],
];
// Deep ones over and over (the case that kept memory), the rest once per round.
const deep = hostile.slice(0, 5);

describe('memory per request', function () {
  // A process of its own to start, and 330 bodies of up to 64 KB on a machine that may be busy.
  this.timeout(300_000);
  let scratch: ScratchDatabase | undefined;
  let service: ServiceProcess;
  let inspector: Inspector | undefined;
  after(async () => {
    inspector?.close();
    service?.child.kill('SIGKILL');
    await service?.exited;
    await scratch?.drop();
  });

  it('when 300 hostile bodies (200 of them nested thousands deep) have been answered, ' +
    'then the heap after GC, used and reserved, is within 16 MB of where it was', async () => {
    scratch = backend === 'postgresql' ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
    service = spawnService({ LOG_LEVEL: 'info', DEMO_DATA: 'true', ...scratch?.env,
      ...(process.env.KEYCLOAK_URL && { KEYCLOAK_URL: process.env.KEYCLOAK_URL }) },
      ['--expose-gc', '--inspect=127.0.0.1:0']);
    const { url, api } = await listening(service);
    inspector = await inspect(service);
    const realm = process.env.KEYCLOAK_URL ? `${process.env.KEYCLOAK_URL}/realms/sighting` : `${url}/realms/sighting`;
    const authorization = `Bearer ${await tokenFor(realm, 'admin')}`;
    const statuses = new Map<number, number>();
    const send = async ([method, path, type, body]: (typeof hostile)[number]) => {
      const response =
        await fetch(`${api}${path}`, { method, body, headers: { Authorization: authorization, 'Content-Type': type } });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    };
    /** `count` bodies from `bodies` in turn, four at a time. */
    const round = async (bodies: typeof hostile, count: number) => {
      let next = 0;
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (next < count) await send(bodies[next++ % bodies.length]!);
      }));
    };
    // A first round loads and compiles whatever the paths need once (modules, messages, validators).
    await round(hostile, hostile.length * 3);
    const before = await inspector.heapAfterGc();
    statuses.clear();
    await round(deep, 200);
    await round(hostile, 100);
    const after = await inspector.heapAfterGc();
    expect([...statuses.keys()].filter((status) => status >= 500), JSON.stringify([...statuses])).to.deep.equal([]);
    expect([...statuses.values()].reduce((a, b) => a + b)).to.equal(300);
    // Used: nothing kept. Reserved too: a walk that recursed thousands deep grew the heap V8 holds by 67 MB for five
    // requests, used or not, and an instance's memory with it.
    const grown = (key: 'heapUsed' | 'heapReserved') =>
      ({ [key]: `${(before[key] / megabyte).toFixed(1)} → ${(after[key] / megabyte).toFixed(1)} MB` });
    expect((after.heapUsed - before.heapUsed) / megabyte, JSON.stringify(grown('heapUsed'))).to.be.below(16);
    expect((after.heapReserved - before.heapReserved) / megabyte, JSON.stringify(grown('heapReserved')))
      .to.be.below(16);
  });
});
