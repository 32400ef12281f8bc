// The tests' token cache and a service started later on a port an earlier one had (listen(0) hands ports out again
// within a few dozen binds on this machine): the later service's embedded provider signs with a key of its own.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { freePort } from '../support/free-port.ts';

describe('a service started on the port of one stopped before it', function () {
  let later: TestService | undefined;
  after(async () => { await later?.stop(); });

  it('when a test asks for a token of the same realm URL, then it gets one the later service admits', async () => {
    const port = String(await freePort());
    const earlier = await startService({ PORT: port });
    const realm = earlier.realm;
    const earlierToken = await tokenFor(realm, 'alice');
    await earlier.stop();
    later = await startService({ PORT: port });
    expect(later.realm).to.equal(realm);
    const token = await tokenFor(later.realm, 'alice');
    const response = await fetch(`${later.api}/vessel`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status, await response.text()).to.equal(200);
    // The earlier token is the earlier provider's: the later one refuses it (what the cache would have handed out).
    const refused = await fetch(`${later.api}/vessel`, { headers: { Authorization: `Bearer ${earlierToken}` } });
    expect(refused.status).to.equal(process.env.KEYCLOAK_URL ? 200 : 401);
  });
});
