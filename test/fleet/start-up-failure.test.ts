// A start that fails leaves one JSON log line naming the cause (never a stack, SQL or a secret) and a non-zero exit.
import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { backend } from '../support/service.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { spawnService } from '../support/service-process.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

async function failedStart(env: Record<string, string>) {
  const service = spawnService(env);
  const code = await service.exited;
  return { code, lines: service.lines, other: service.other.join('') };
}

/** What every failed start has in common: exit 1, one fatal line, nothing else, no stack. */
function expectOneFatalLine({ code, lines, other }: Awaited<ReturnType<typeof failedStart>>): Record<string, unknown> {
  expect(code).to.equal(1);
  expect(other, 'nothing but JSON lines').to.equal('');
  const fatal = lines.filter((line) => line.level === 60);
  expect(fatal).to.have.length(1);
  expect(JSON.stringify(lines)).not.to.match(/stack|\bat [\w.<>]+ \(|node:internal/);
  return fatal[0]!;
}

describe('start-up failures', () => {
  it('when a setting is invalid, then the line names the variable and the problem, not the value', async () => {
    const line = expectOneFatalLine(await failedStart({ PORT: 'eighty', METRICS_TOKEN: 'short-secret' }));
    expect(line).to.include({ cause: 'configuration' });
    expect(line.problems).to.deep.include.members([
      { variable: 'PORT', problem: 'Invalid input: expected number, received NaN' },
      { variable: 'METRICS_TOKEN', problem: 'Too small: expected string to have >=16 characters' },
    ]);
    expect(JSON.stringify(line)).not.to.include('short-secret').and.not.to.include('eighty');
  });

  it('when DATABASE_URL or DATABASE_DIRECT_URL is no PostgreSQL URL, ' +
    'then the line names each variable and the form expected, not the value', async () => {
    const line = expectOneFatalLine(await failedStart({ DATABASE_URL: 'postgres//someone:pa55word@db', DATABASE_DIRECT_URL: 'http://db.example/x' }));
    const problem = 'must be a PostgreSQL URL: postgresql://user[:password]@host[:port]/database';
    expect(line).to.deep.include({ cause: 'configuration',
      problems: [{ variable: 'DATABASE_URL', problem }, { variable: 'DATABASE_DIRECT_URL', problem }] });
    expect(JSON.stringify(line)).not.to.include('pa55word').and.not.to.include('db.example')
      .and.not.to.include('Invalid URL');
  });

  it('when a password with `@ / : #` is pasted into DATABASE_URL unencoded, then the start refuses the URL ' +
    'naming the remedy and no part of the password, and so does `npm run config`', async () => {
    const pasted = 'postgresql://sighting:p@ss/w:rd#1@db:5432/sighting';
    const failed = await failedStart({ DATABASE_URL: pasted });
    const line = expectOneFatalLine(failed);
    const problems = line.problems as Array<{ variable: string; problem: string }>;
    expect(problems.map(({ variable }) => variable)).to.deep.equal(['DATABASE_URL']);
    expect(problems[0]!.problem).to.include('percent-encode `@ / : # ?` in a password');
    const report = spawnSync(process.execPath, ['src/config/settings-report.ts'],
      { env: { PATH: process.env.PATH, DATABASE_URL: pasted }, encoding: 'utf8' });
    const printed = JSON.stringify(failed.lines) + failed.other + report.stdout + report.stderr;
    expect({ status: report.status, leaks: ['p@ss', 'ss/w', 'w:rd', 'rd#1'].filter((part) => printed.includes(part)) })
      .to.deep.equal({ status: 1, leaks: [] });
  });

  it('when DATABASE_DIRECT_URL is set without DATABASE_URL, then the line says it needs it', async () => {
    const line = expectOneFatalLine(await failedStart({ DATABASE_DIRECT_URL: 'postgresql://postgres@127.0.0.1:5432/x' }));
    expect(line).to.deep.include({ cause: 'configuration', problems: [{ variable: 'DATABASE_DIRECT_URL',
      problem: 'needs DATABASE_URL: the embedded database has no server' }] });
  });

  it('when the database cannot be reached within DB_START_WAIT_MS, then it was tried again, ' +
    'and the line names the variable, the host and the bound, not the password', async () => {
    const failed = await failedStart({ DATABASE_URL: 'postgresql://someone:pa55word@127.0.0.1:9/nowhere',
      DB_CONNECT_TIMEOUT_MS: '2000', DB_START_WAIT_MS: '1500' });
    const line = expectOneFatalLine(failed);
    expect(line).to.include({
      cause: 'database connection', variable: 'DATABASE_URL', host: '127.0.0.1:9',
      reason: 'DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:9 (bound DB_CONNECT_TIMEOUT_MS 2000 ms): ' +
        'connect ECONNREFUSED 127.0.0.1:9',
    });
    const retries = failed.lines.filter((logged) => logged.level === 40 && logged.variable === 'DATABASE_URL');
    expect(retries.length, 'tries before giving up').to.be.above(0);
    expect(retries[0]).to.deep.include({ reason: 'connect ECONNREFUSED 127.0.0.1:9', msg: 'DATABASE_URL: ' +
      'PostgreSQL cannot be reached yet (connect ECONNREFUSED 127.0.0.1:9); trying again within DB_START_WAIT_MS' });
    expect(JSON.stringify(failed.lines)).not.to.include('pa55word');
  });

  it('when DATABASE_URL is set but empty (an unset secret), ' +
    'then the start fails naming it, also without NODE_ENV', async () => {
    const line = expectOneFatalLine(await failedStart({ DATABASE_URL: '' }));
    expect(line).to.deep.include({ cause: 'configuration', problems: [{ variable: 'DATABASE_URL',
      problem: 'is empty: remove it to use the default, or give it a value' }] });
  });

  it('when NODE_ENV=production has no DATABASE_URL, ' +
    'then the start refuses the embedded database, naming DATABASE_URL and the setting that allows it', async () => {
    const line = expectOneFatalLine(await failedStart({ NODE_ENV: 'production', KEYCLOAK_URL: 'http://127.0.0.1:9' }));
    expect(line).to.include({ cause: 'configuration' });
    expect(line.problems).to.have.length(1);
    expect((line.problems as Array<{ variable: string; problem: string }>)[0]).to.include({ variable: 'DATABASE_URL' });
    expect(line.msg).to.include('EMBEDDED_DATABASE=true');
  });

  it('when the port is taken, then the line says so', async () => {
    const taken: Server = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const { port } = taken.address() as AddressInfo;
      const line = expectOneFatalLine(await failedStart({ PORT: String(port) }));
      expect(line).to.include({ cause: 'EADDRINUSE' });
      expect(line.reason).to.include(`127.0.0.1:${port}`);
    } finally {
      taken.close();
    }
  });

  describe('the first connection (PostgreSQL)', () => {
    before(function () { if (backend !== 'postgresql') this.skip(); });

    it('when PostgreSQL comes up while the start waits for it, then the start goes on and the service answers',
      async () => {
        const server = new URL(process.env.DATABASE_URL!);
        const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
        const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
        await proxy.cut();
        const viaProxy = new URL(scratch.url);
        viaProxy.hostname = '127.0.0.1';
        viaProxy.port = String(proxy.port);
        const service = spawnService({ DATABASE_URL: viaProxy.toString(), DB_START_WAIT_MS: '120000' });
        try {
          await service.lineWhere((line) => line.level === 40 && line.variable === 'DATABASE_URL');
          await proxy.restore();
          const started = await service.lineWhere((line) => typeof line.page === 'string');
          const ready = await fetch(`${String(started.page)}health/ready`);
          expect(ready.status).to.equal(200);
        } finally {
          service.child.kill('SIGTERM');
          await service.exited;
          await proxy.close();
          await scratch.drop();
        }
      });
  });

  describe('migrations (PostgreSQL)', () => {
    before(function () { if (backend !== 'postgresql') this.skip(); });

    it('when MIGRATE_AT_START=false and the database was never migrated, ' +
      'then the line names the pending migrations and the command', async () => {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
      try {
        const line = expectOneFatalLine(await failedStart({ DATABASE_URL: scratch.url, MIGRATE_AT_START: 'false' }));
        expect(line).to.include({ cause: 'migrations pending' });
        expect(line.pending).to.include.members(['0001-initial-schema', '0002-idempotency-keys']);
        expect(line.msg).to.include('npm run migrate');
      } finally {
        await scratch.drop();
      }
    });
  });
});
