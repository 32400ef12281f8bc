// A claim the service stores or logs is bounded where it is read: beyond the bound the token is a 401, never a 500.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { startTestRealm, type TestRealm } from '../support/forged-tokens.ts';
import { eventually } from '../support/condition.ts';
import { captureLog, type LogCapture } from '../support/log-capture.ts';

const INVALID_CHALLENGE = 'Bearer realm="sighting", error="invalid_token"';
const INVALID = { general: 'The access token is invalid or has expired.' };
const PREFIX = `${'a'.repeat(64)}…`;
const created = (entry: Record<string, unknown>) => entry.method === 'POST' && entry.status === 201;

describe('claim bounds (a test realm whose signing key the test holds)', () => {
  let realm: TestRealm;
  let service: TestService;
  let log: LogCapture;

  before(async () => {
    realm = await startTestRealm();
    log = captureLog();
    service = await startService({ KEYCLOAK_URL: realm.url, LOG_LEVEL: 'info' }, { logDestination: log });
  });
  after(async () => {
    await service?.stop();
    await realm?.close();
  });

  /** POST /sighting (a create stores the subject as the sighting's creator) with a token of these claims. */
  async function create(claims: Record<string, unknown>): Promise<Response> {
    return fetch(`${service.api}/sighting`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await realm.token(claims)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ vessel: { vesselId: -1 }, sightingMemo: 'claim bounds' }),
    });
  }

  const refused: [string, Record<string, unknown>][] = [
    ['a subject of 10,000 characters', { sub: 's'.repeat(10_000) }],
    ['a subject of 256 characters', { sub: 's'.repeat(256) }],
    ['a subject holding a NUL', { sub: 'alice\u0000admin' }],
    ['a subject holding a line feed', { sub: 'alice\nadmin' }],
    ['a subject holding a lone surrogate', { sub: 'alice\ud800' }],
    ['a preferred_username of 10,000 characters', { preferred_username: 'u'.repeat(10_000) }],
    ['a preferred_username holding a NUL', { preferred_username: 'alice\u0000' }],
  ];
  for (const [what, claims] of refused) {
    it(`when a create carries a token with ${what}, then 401 invalid_token (never a database error)`, async () => {
      const response = await create(claims);
      const challenge = response.headers.get('www-authenticate');
      const answer = { status: response.status, challenge, body: await response.json() };
      expect(answer).to.deep.equal({ status: 401, challenge: INVALID_CHALLENGE, body: INVALID });
    });
  }

  it('when the refused tokens were sent, then no log line carries their long claims', () => {
    expect(log.text()).to.not.contain('s'.repeat(65)).and.not.contain('u'.repeat(65));
  });

  it('when the subject is 255 characters, then the create is 201 and its log line has a 64-character prefix',
    async () => {
    const sub = `${'a'.repeat(200)}${'b'.repeat(55)}`;
    const response = await create({ sub });
    expect(response.status).to.equal(201);
    // The line is written when the answer is done, which the client may see first.
    const line = await eventually(() => log.lines.find(created));
    expect(line.subject).to.equal(PREFIX);
  });

  it('when the subject holds a bidirectional override, then the log line carries it escaped', async () => {
    const response = await create({ sub: 'mallory\u202etxt.exe' });
    expect(response.status).to.equal(201);
    const escaped = await eventually(() => log.lines.find((entry) => created(entry) && entry.subject !== PREFIX));
    expect(escaped.subject).to.equal('mallory\\u202etxt.exe');
  });
});
