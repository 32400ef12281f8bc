// Repeated failed logins of one user or from one address: slowed, then refused with 429 and Retry-After.
import { expect } from 'chai';
import { passwordGrant, startProvider, type Harness } from './harness.ts';

// The realm export's failureFactor: the embedded provider follows the realm's brute-force settings.
const FAILURE_FACTOR = 5;

/** The login form of a fresh authorization request: its action URL and the cookies the provider set. */
async function loginForm(harness: Harness): Promise<{ action: URL; cookie: string }> {
  const url = new URL(`${harness.issuer}/protocol/openid-connect/auth`);
  const params = {
    client_id: 'sighting-web', response_type: 'code', scope: 'openid', redirect_uri: 'http://127.0.0.1:8765/callback',
    state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const page = await fetch(url, { redirect: 'manual' });
  const cookie = page.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  return { action: new URL(action.replace(/&#38;/g, '&'), url), cookie };
}

describe('embedded provider: failed logins are throttled', () => {
  let harness: Harness;
  beforeEach(async () => { harness = await startProvider(); });
  afterEach(async () => { await harness.close(); });

  it(`when ${FAILURE_FACTOR} password grants of one user fail, then the next is 429 with Retry-After, right or not`,
    async () => {
    const failed = [];
    for (let i = 0; i < FAILURE_FACTOR; i += 1) failed.push((await passwordGrant(harness, 'bob', `guess-${i}`)).status);
    expect(failed).to.deep.equal(Array(FAILURE_FACTOR).fill(401));
    const refused = await passwordGrant(harness, 'bob', 'bob');
    const answer = { status: refused.status, error: refused.body.error };
    expect(answer).to.deep.equal({ status: 429, error: 'invalid_grant' });
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    // Another user is refused only once the address has failed often enough: alice still signs in.
    expect((await passwordGrant(harness, 'alice', 'alice')).status).to.equal(200);
  });

  it('when a user signs in with the right password between failures, then the failures are forgotten', async () => {
    for (let round = 0; round < 2; round += 1) {
      for (let i = 1; i < FAILURE_FACTOR; i += 1) {
        expect((await passwordGrant(harness, 'bob', 'wrong')).status).to.equal(401);
      }
      expect((await passwordGrant(harness, 'bob', 'bob')).status).to.equal(200);
    }
  });

  it('when one address fails for many users, then it is refused for every user', async () => {
    const users = ['alice', 'bob', 'viewer', 'admin'];
    // Twenty users, each far below its own limit, reach the address's (four times a user's).
    for (let i = 0; i < FAILURE_FACTOR * 4; i += 1) await passwordGrant(harness, `nobody-${i}`, 'wrong');
    const statuses = await Promise.all(users.map(async (user) => (await passwordGrant(harness, user, user)).status));
    expect(statuses).to.deep.equal([429, 429, 429, 429]);
  });

  it(`when the login form fails ${FAILURE_FACTOR} times for one user, then it answers 429, Retry-After, a message`,
    async () => {
    const { action, cookie } = await loginForm(harness);
    const post = (password: string) => fetch(action, {
      method: 'POST', redirect: 'manual', headers: { Cookie: cookie },
      body: new URLSearchParams({ username: 'bob', password }),
    });
    const failed = [];
    for (let i = 0; i < FAILURE_FACTOR; i += 1) failed.push((await post(`guess-${i}`)).status);
    expect(failed).to.deep.equal(Array(FAILURE_FACTOR).fill(200));
    const refused = await post('bob');
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(await refused.text()).to.contain('Too many failed sign-ins; please wait a moment and try again.');
  });
});
