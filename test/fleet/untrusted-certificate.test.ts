// A server whose certificate no CA the instance trusts has signed (production's TLS with a CA of its own, the URL
// without `sslrootcert`): the start fails at once naming the setting that fixes it, not Node's command-line flag.
import { expect } from 'chai';
import { backend, startService } from '../support/service.ts';
import { DatabaseUnreachable } from '../../src/db/pooler-probe.ts';

describe('a PostgreSQL certificate from an unknown CA @pgbouncer', function () {
  let url: URL;

  before(function () {
    url = new URL(process.env.DATABASE_URL ?? 'postgresql://unset');
    // Only a run whose server has a CA of its own (scripts/postgres-production.sh) has such a certificate.
    if (backend !== 'postgresql' || !url.searchParams.has('sslrootcert')) return this.skip();
  });

  it('when the URL names no sslrootcert, then the start fails at once naming sslrootcert in the URL', async () => {
    url.searchParams.delete('sslrootcert');
    const failure = await startService({ DATABASE_URL: url.toString(), DB_START_WAIT_MS: '600000' })
      .then(async (service) => { await service.stop(); return undefined; }, (error: unknown) => error);
    expect(failure).to.be.instanceOf(DatabaseUnreachable);
    const { message } = failure as Error;
    expect({ names: message.includes('?sslrootcert=/path/to/ca.crt'), flag: message.includes('--use-system-ca'),
      password: message.includes(process.env.PGPASSWORD ?? '\u0000') }, message)
      .to.deep.equal({ names: true, flag: false, password: false });
  });
});
