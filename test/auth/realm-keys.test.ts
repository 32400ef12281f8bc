// The realm's keys as the service holds them: refreshed on a schedule and on an unknown key id, in bounded time.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { eventually } from '../support/condition.ts';
import { captureLog, type LogCapture } from '../support/log-capture.ts';
import { startRotatingRealm, startSilentServer, type RotatingRealm } from '../support/rotating-realm.ts';

const INVALID = { general: 'The access token is invalid or has expired.' };
const KEYS_UNAVAILABLE = {
  general: 'The identity provider\'s signing keys cannot be fetched; please try again later.',
};
// Test-sized bounds (the defaults are 30 s, 3 s and 1 s).
const settings = {
  REALM_KEYS_REFRESH_MS: '300',
  REALM_KEYS_FETCH_TIMEOUT_MS: '1000',
  REALM_KEYS_MIN_FETCH_INTERVAL_MS: '200',
};

const fetchFailed = (line: Record<string, unknown>) =>
  line.msg === 'the realm\'s signing keys could not be fetched; the keys held stay in use';

async function read(service: TestService, token: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

/** Every console.error line written while `work` runs (keycloak-connect writes its own there). */
async function consoleErrorsDuring(work: () => Promise<void>): Promise<unknown[][]> {
  const written: unknown[][] = [];
  const original = console.error;
  console.error = (...line: unknown[]) => { written.push(line); };
  try {
    await work();
  } finally {
    console.error = original;
  }
  return written;
}

describe('realm keys (a stand-in realm whose keys the test rotates)', () => {
  let realm: RotatingRealm;
  let service: TestService;
  let log: LogCapture;

  beforeEach(async () => {
    realm = await startRotatingRealm();
    log = captureLog();
  });
  afterEach(async () => {
    await service?.stop();
    await realm?.close();
  });

  it('when a key is removed from the realm, then its tokens are refused once the keys are fetched again', async () => {
    const old = await realm.addKey();
    service = await startService({ KEYCLOAK_URL: realm.url, ...settings }, { logDestination: log });
    const token = await realm.token(old);
    // Verified once, then admitted from the cache of verified tokens: the removal must reach that too.
    expect((await read(service, token)).status).to.equal(200);
    const current = await realm.addKey();
    realm.removeKey(old);
    await eventually(async () => (await read(service, token)).status === 401);
    expect(await read(service, token)).to.deep.equal({ status: 401, body: INVALID });
    expect((await read(service, await realm.token(current))).status).to.equal(200);
  });

  it('when a token names a random key id, then a token of a key the realm made just after is still 200', async () => {
    const old = await realm.addKey();
    // A fetch spacing far above the test's own waits: a window like keycloak-connect's would refuse the new key.
    const spaced = { KEYCLOAK_URL: realm.url, ...settings, REALM_KEYS_MIN_FETCH_INTERVAL_MS: '2000' };
    service = await startService(spaced, { logDestination: log });
    // The keys are held (on a loaded machine the fetch at start may have timed out; this read fetches them then).
    expect((await read(service, await realm.token(old))).status).to.equal(200);
    const errors = await consoleErrorsDuring(async () => {
      const random = await realm.token(old, {}, 'random-key-id');
      expect(await read(service, random)).to.deep.equal({ status: 401, body: INVALID });
      const rotated = await realm.addKey();
      expect((await read(service, await realm.token(rotated))).status).to.equal(200);
    });
    expect(errors).to.deep.equal([]);
  });

  it('when many tokens name random key ids at once, then they share fetches: fewer fetches than tokens, all 401',
    async () => {
    const key = await realm.addKey();
    const rarely = { KEYCLOAK_URL: realm.url, ...settings, REALM_KEYS_REFRESH_MS: '50000' };
    service = await startService(rarely, { logDestination: log });
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => realm.token(key, {}, `random-${i}`)));
    expect((await read(service, await realm.token(key))).status).to.equal(200);
    const before = realm.fetches();
    const statuses = await Promise.all(tokens.map(async (token) => (await read(service, token)).status));
    expect(statuses).to.deep.equal(Array(50).fill(401));
    // Every token that arrived while a fetch was under way shares the one after it (no spacing: see the flood below).
    expect(realm.fetches() - before).to.be.below(tokens.length);
  });

  it('when the certs endpoint stops answering, then tokens of a key id never seen are 503 with Retry-After within ' +
    'one fetch timeout, one of a held key 200', async () => {
    const key = await realm.addKey();
    // A fetch timeout far above the machine's own delays: two of them in a row (the old wait) cannot pass as one.
    const timeoutMs = 3000;
    service = await startService({ KEYCLOAK_URL: realm.url, ...settings,
      REALM_KEYS_FETCH_TIMEOUT_MS: String(timeoutMs) }, { logDestination: log });
    expect((await read(service, await realm.token(key))).status).to.equal(200);
    const linesBefore = log.lines.length;
    realm.freeze();
    const errors = await consoleErrorsDuring(async () => {
      const unknown = await Promise.all([0, 1, 2, 3].map((i) => realm.token(key, {}, `never-seen-${i}`)));
      const started = performance.now();
      const answers = await Promise.all(unknown.map(async (token) => {
        const response = await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } });
        return { status: response.status, retryAfter: response.headers.get('retry-after'),
          body: await response.json(), withinOneTimeout: performance.now() - started < 2 * timeoutMs };
      }));
      expect(answers).to.deep.equal(Array(4).fill({ status: 503, retryAfter: '5', body: KEYS_UNAVAILABLE,
        withinOneTimeout: true }));
      expect((await read(service, await realm.token(key))).status).to.equal(200);
    });
    expect(errors).to.deep.equal([]);
    // Given up on and logged once, through the service's logger, however many fetches failed since.
    await eventually(() => realm.fetches() >= 4);
    const warnings = log.lines.slice(linesBefore).filter(fetchFailed);
    expect(warnings).to.have.length(1);
  });

  it('when one unknown key id is sent again and again, then it is 401 each time and the realm is asked once',
    async () => {
    const key = await realm.addKey();
    const rarely = {
      KEYCLOAK_URL: realm.url, ...settings, REALM_KEYS_REFRESH_MS: '50000', REALM_KEYS_MIN_FETCH_INTERVAL_MS: '10000',
    };
    service = await startService(rarely, { logDestination: log });
    expect((await read(service, await realm.token(key))).status).to.equal(200);
    const stranger = await realm.token(key, {}, 'the-same-stranger');
    expect(await read(service, stranger)).to.deep.equal({ status: 401, body: INVALID });
    const before = realm.fetches();
    for (let i = 0; i < 10; i += 1) expect(await read(service, stranger)).to.deep.equal({ status: 401, body: INVALID });
    expect(realm.fetches() - before).to.equal(0);
  });

  it('when a flood of random key ids goes on, then the first token of a key the realm has just made is 200 ' +
    'without waiting for the strangers\' spacing', async () => {
    const key = await realm.addKey();
    // Strangers limited to one fetch each every 10 s: a new key queued behind them would wait that long.
    const spacingMs = 10_000;
    const spaced = { KEYCLOAK_URL: realm.url, ...settings, REALM_KEYS_REFRESH_MS: '50000',
      REALM_KEYS_MIN_FETCH_INTERVAL_MS: String(spacingMs) };
    service = await startService(spaced, { logDestination: log });
    expect((await read(service, await realm.token(key))).status).to.equal(200);
    let flooding = true;
    const refused: number[] = [];
    const flood = Promise.all([0, 1, 2, 3].map(async () => {
      while (flooding) refused.push((await read(service, await realm.token(key, {}, randomUUID()))).status);
    }));
    try {
      const rotated = await realm.makeKey();
      const before = realm.fetches();
      await eventually(() => realm.fetches() - before >= 2, { what: 'the flood causes fetches' });
      // Listed just after a stranger's fetch began: spaced behind it, the key's first token would wait ~10 s.
      const seen = realm.fetches();
      await eventually(() => realm.fetches() > seen, { what: 'a stranger\'s fetch' });
      realm.listKey(rotated);
      const token = await realm.token(rotated);
      const started = performance.now();
      const status = (await read(service, token)).status;
      expect({ status, wellBeforeTheSpacing: performance.now() - started < spacingMs / 2 })
        .to.deep.equal({ status: 200, wellBeforeTheSpacing: true });
    } finally {
      flooding = false;
      await flood;
    }
    expect(new Set(refused)).to.deep.equal(new Set([401]));
  });
});

describe('realm keys when no key can be fetched at all (a certs endpoint that never answers)', () => {
  it('when a token arrives, then 503 with Retry-After, and the failure is logged once', async () => {
    const silent = await startSilentServer();
    const log = captureLog();
    const service = await startService({ KEYCLOAK_URL: silent.url, ...settings }, { logDestination: log });
    try {
      const responses = await Promise.all([0, 1, 2].map(() => fetch(`${service.api}/sighting/-1`, {
        headers: { Authorization: `Bearer ${Buffer.from('{"alg":"RS256","kid":"k"}').toString('base64url')}.e30.AA` },
      })));
      const answers = await Promise.all(responses.map(async (response) => ({
        status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json(),
      })));
      expect(answers).to.deep.equal(Array(3).fill({ status: 503, retryAfter: '5', body: KEYS_UNAVAILABLE }));
      const warnings = log.lines.filter(fetchFailed);
      expect(warnings).to.have.length(1);
    } finally {
      await service.stop();
      await silent.close();
    }
  });
});
