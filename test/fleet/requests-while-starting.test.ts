// A request that reaches an instance while it starts (a balancer's probe, an eager client) gets an answer: readiness
// 503 "starting", the API 503 with Retry-After and the contract's error body until the application is mounted, never
// a connection left hanging.
import { expect } from 'chai';
import { request } from 'node:http';
import { backend } from '../support/service.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { spawnService } from '../support/service-process.ts';
import { freePort } from '../support/free-port.ts';
import { apiVersion } from '../../src/http/api-version.ts';

interface Answer { status: number; retryAfter?: string; apiVersion?: string; body: string }

/** One GET that resolves with its answer, rejects when the port refuses, and fails the test if no answer comes. */
function get(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => {
        const apiVersion = res.headers['api-version'] as string | undefined;
        resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], apiVersion, body });
      });
    });
    // A request held unanswered is held until the instance stops, which the test asks for only after readiness says
    // 200: the bound tells a hang from a slow answer (on PGlite the start holds the instance's event loop for seconds,
    // many more on a loaded machine) without guessing the answer's time.
    req.setTimeout(60_000, () => req.destroy(new Error(`no answer to GET ${path} within 60 s`)));
    req.on('error', reject).end();
  });
}

describe(`requests while an instance starts (${backend}) @pgbouncer`, () => {
  let scratch: ScratchDatabase | undefined;
  before(async () => {
    scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  });
  after(async () => {
    await scratch?.drop();
  });

  it('when requests arrive from the moment the port opens, then each gets an answer: ' +
    '503 with Retry-After in the caller\'s language while starting, then the service\'s', async function () {
    const port = await freePort();
    const service = spawnService({ PORT: String(port), LOG_LEVEL: 'warn', DEMO_DATA: 'true', ...scratch?.env });
    const probes: Answer[] = [];
    const calls: Answer[] = [];
    const refusedAsNotYetOpen = (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') return undefined;
      throw error;
    };
    try {
      // As soon as the port takes connections; until then each attempt is refused at once.
      for (;;) {
        const probe = await get(port, '/health/ready', { 'Accept-Language': 'de' }).catch(refusedAsNotYetOpen);
        const call = await get(port, '/api/sighting/-1', { 'Accept-Language': 'de' }).catch(refusedAsNotYetOpen);
        if (probe) probes.push(probe);
        if (call) calls.push(call);
        if (probe?.status === 200) break;
      }
    } finally {
      service.child.kill('SIGINT');
      await service.exited;
    }
    // Readiness says "starting" as it says "stopping"; the API answers the contract's 503 until it checks tokens (401).
    expect(probes.map((probe) => probe.status).filter((status) => status !== 503 && status !== 200)).to.deep.equal([]);
    for (const probe of probes.filter((answer) => answer.status === 503)) {
      expect({ retryAfter: probe.retryAfter, apiVersion: probe.apiVersion, body: JSON.parse(probe.body) })
        .to.deep.equal({ retryAfter: '1', apiVersion, body: { status: 'DOWN', reason: 'starting' } });
    }
    expect(calls.map((call) => call.status).filter((status) => status !== 503 && status !== 401)).to.deep.equal([]);
    for (const call of calls.filter((answer) => answer.status === 503)) {
      const starting = { general: 'Der Dienst startet gerade; bitte gleich erneut versuchen.' };
      expect({ retryAfter: call.retryAfter, apiVersion: call.apiVersion, body: JSON.parse(call.body) })
        .to.deep.equal({ retryAfter: '1', apiVersion, body: starting });
    }
  });
});
