// A network partition to PostgreSQL (bytes stop, nothing is refused) is a 503 with Retry-After within the configured
// bounds. The partition holds until every answer has arrived, so an answer at all shows a bound ended the wait (a
// request that waited for the network would never answer, and the test would time out); how long the bounds take is
// printed, not asserted: on a loaded machine it is the machine's, not the service's (docs/testing.md).
import { expect } from 'chai';
import { backend, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor, type User } from '../support/tokens.ts';
import { buildSighting, buildVessel } from '../support/fixtures.ts';
import { longListWaitingForItsClient, readToEnd, serviceBehindProxy, type ProxiedService, type TcpProxy }
  from '../support/tcp-proxy.ts';
import { poolConnections } from '../support/scrape.ts';
import { onceOrLast } from '../support/condition.ts';

const unavailable = { general: 'The database is not available; please try again later.' };
const outcomeUnknown = { general: 'The connection to the database broke while the change was being written: it may ' +
  'have been stored. Repeat a create with the same Idempotency-Key, or read the record before you repeat a change.' };
const streamedReadsBusy =
  { general: 'Too many long reads are running on this instance; please try again in a moment.' };
// Each bound 1 s. The longest path: waiting for a free connection (1 s), then a statement on it that gets no answer
// (1 s + the client's 1 s grace) = 3 s.
const bounds = { DB_ACQUIRE_TIMEOUT_MS: '1000', DB_CONNECT_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '1000' };

describe('database partition', function () {
  let proxied: ProxiedService | undefined;
  let proxy: TcpProxy;
  let service: TestService;

  before(async function () {
    // PGlite lives inside the process: there is no network to cut.
    if (backend !== 'postgresql') return this.skip();
    proxied = await serviceBehindProxy({ DB_POOL_MAX: '4', ...bounds });
    ({ proxy, service } = proxied);
    await Promise.all([tokenFor(service.realm, 'alice'), tokenFor(service.realm, 'admin')]);
  });

  after(async () => {
    await proxied?.close();
  });

  async function timed(method: string, path: string, body?: unknown, user: User = 'alice') {
    const started = performance.now();
    const response = await rawRequest(service, method, path, body === undefined ? { user }
      : { user, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    const text = await response.text();
    return { status: response.status, retryAfter: response.headers.get('Retry-After'),
      body: text ? JSON.parse(text) as unknown : undefined, ms: performance.now() - started };
  }

  type PoolState = Awaited<ReturnType<typeof poolConnections>>;

  /** The pool once `holds` is true of it, or as it is after 10 s, for the assertion to show. */
  const poolOnce = (holds: (state: PoolState) => boolean) =>
    onceOrLast(() => poolConnections(service.url), holds, 10_000);

  /** The pool once no connection is in use. */
  const quietPool = () => poolOnce((state) => state.used === 0 && state.waiting === 0);

  /** A read by id once it is answered 200, or its last answer after 60 s, for the assertion to show. */
  const recovered = () => onceOrLast(() => timed('GET', '/sighting/-1'), (answer) => answer.status === 200, 60_000);

  it(`when the network to PostgreSQL is partitioned, then reads, lists and creates, 12 at once, ` +
    'are each 503 with Retry-After while the partition holds, and the service recovers', async () => {
    // Warm the pool: several open connections that will go silent, and some requests that must open new ones.
    await Promise.all(Array.from({ length: 4 }, () => timed('GET', '/sighting/-1')));

    proxy.partition();
    // A vessel's create is a transaction (the vessel and its names): its BEGIN meets the partition.
    const requests = [() => timed('GET', '/sighting/-1'), () => timed('GET', '/sighting'),
      () => timed('POST', '/sighting', buildSighting()), () => timed('POST', '/vessel', buildVessel(), 'admin')];
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => requests[i % requests.length]!()));
    const ready = await fetch(`${service.url}/health/ready`);
    await proxy.restore();

    console.log(`      answered after ${answers.map((a) => `${a.status}: ${Math.round(a.ms)}`).join(', ')} ms`);
    answers.forEach(({ ms: _ms, ...answer }, i) => {
      // A list first takes a place of the streamed reads' share; the lists ahead of it hold that share while the
      // database is silent, so on a slow machine it may be refused by the share instead: as promptly, also a 503.
      const refusedByShare = i % requests.length === 1
        && (answer.body as { general?: string } | undefined)?.general === streamedReadsBusy.general;
      // A create whose statement was sent into the partition may have been stored: its 503 says so; one that never
      // had a connection was not.
      const mayHaveBeenStored = i % requests.length >= 2
        && (answer.body as { general?: string } | undefined)?.general === outcomeUnknown.general;
      // The share's hint is its expected wait in whole seconds (docs/operating.md), not a constant.
      const shareHint = refusedByShare && /^[1-9]\d*$/.test(answer.retryAfter ?? '') ? answer.retryAfter : '1';
      expect(answer).to.deep.equal(refusedByShare ? { status: 503, retryAfter: shareHint, body: streamedReadsBusy }
        : { status: 503, retryAfter: '5', body: mayHaveBeenStored ? outcomeUnknown : unavailable });
    });
    expect(ready.status).to.equal(503);

    expect(await recovered()).to.deep.include({ status: 200 });
    // Every connection the partition broke left the pool, also one whose transaction could not begin.
    expect(await quietPool()).to.deep.include({ used: 0, waiting: 0 });
  });

  it('when the network to PostgreSQL is partitioned while a long list streams, ' +
    'then the answer is cut while the partition holds instead of hanging, and the service recovers', async () => {
    const reader = await longListWaitingForItsClient(proxied!);
    proxy.partition();
    const started = performance.now();
    const ended = await readToEnd(reader);
    const ms = performance.now() - started;
    await proxy.restore();

    console.log(`      list ${ended} ${Math.round(ms)} ms after the partition`);
    expect(ended).to.equal('cut');
    expect(await recovered()).to.deep.include({ status: 200 });
  });

  it('when a statement gets no answer, ' +
    'then its connection is closed at once, not handed out again with the answer still owed', async () => {
    expect(await recovered()).to.deep.include({ status: 200 });
    // The read takes an idle connection of its own.
    const before = await quietPool();
    expect(before).to.deep.include({ used: 0, waiting: 0 });
    expect(before.idle).to.be.above(0);

    proxy.partition();
    const answer = await timed('GET', '/sighting/-1');
    // Still partitioned: the connection the read used must leave the pool (its socket's close is the pool's signal),
    // not go back to it idle.
    const after = await poolOnce((state) => state.used === 0 && state.idle < before.idle);
    await proxy.restore();

    expect({ status: answer.status, closed: before.idle - after.idle }).to.deep.equal({ status: 503, closed: 1 });
    expect(await recovered()).to.deep.include({ status: 200 });
  });
});
