// Refresh-token rotation (RFC 9700 §4.14.2), as the realm export's revokeRefreshToken asks of the embedded provider.
import { expect } from 'chai';
import { passwordGrant, postToken, startProvider, type Harness } from './harness.ts';

describe('embedded provider: refresh tokens rotate', () => {
  let harness: Harness;
  before(async () => { harness = await startProvider(); });
  after(async () => { await harness.close(); });

  it('when a refresh token has been redeemed, then it is spent: a new one came back and the old one is invalid_grant',
    async () => {
      const { body } = await passwordGrant(harness, 'alice', 'alice');
      const redeem = (refreshToken: unknown) => postToken(harness.tokenUrl, {
        grant_type: 'refresh_token', client_id: 'sighting-cli', refresh_token: String(refreshToken),
      });
      const first = await redeem(body.refresh_token);
      expect(first.status).to.equal(200);
      expect(first.body.refresh_token).to.be.a('string').and.not.equal(body.refresh_token);
      const again = await redeem(body.refresh_token);
      expect({ status: again.status, error: again.body.error }).to.deep.equal({ status: 400, error: 'invalid_grant' });
    });
});
