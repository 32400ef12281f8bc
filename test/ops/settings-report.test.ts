// `npm run config`: the effective settings with secrets redacted; a bad one exits non-zero with the start's line.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const root = new URL('../../', import.meta.url).pathname;

/** Runs the report with `env` alone (besides PATH); resolves with its exit code and output. */
async function report(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child =
    spawn(process.execPath, ['src/config/settings-report.ts'], { cwd: root, env: { PATH: process.env.PATH, ...env } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const [code] = await once(child, 'exit') as [number | null];
  return { code, out };
}

describe('npm run config', () => {
  it('when the settings are valid, then each is printed with where it comes from and no secret', async () => {
    const { code, out } = await report({
      DATABASE_URL: 'postgresql://app:s3cret-pw@db.example:5432/sighting?sslmode=verify-full',
      METRICS_TOKEN: 'metrics-token-0123456789', PORT: '9000',
    });
    expect(code).to.equal(0);
    const lines = out.trimEnd().split('\n');
    expect(lines.find((line) => line.startsWith('DATABASE_URL ')))
      .to.match(
        /^DATABASE_URL +postgresql:\/\/app:REDACTED@db\.example:5432\/sighting\?sslmode=verify-full {2}\(set\)$/);
    expect(lines.find((line) => line.startsWith('METRICS_TOKEN '))).to.match(/ REDACTED {2}\(set\)$/);
    expect(lines.find((line) => line.startsWith('PORT '))).to.match(/ 9000 {2}\(set\)$/);
    expect(lines.find((line) => line.startsWith('BASE_PATH '))).to.match(/ \/api {2}\(default\)$/);
    expect(out).not.to.include('s3cret-pw').and.not.to.include('metrics-token-0123456789');
  });

  it('when a setting is bad, then it exits 1 with one line naming the variable, not its value', async () => {
    const { code, out } = await report({ DB_POOL_MAX: 'many' });
    expect(code).to.equal(1);
    const lines = out.trimEnd().split('\n');
    expect(lines).to.have.length(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).to.deep.include({ level: 60, cause: 'configuration' });
    expect(line.problems)
      .to.deep.equal([{ variable: 'DB_POOL_MAX', problem: 'Invalid input: expected number, received NaN' }]);
  });
});
