// A PgBouncer of the test's own in statement pooling mode, in front of the server a URL names: what the service
// refuses.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { eventually } from './condition.ts';
import { freePort } from './free-port.ts';

const program = '/usr/sbin/pgbouncer';

/**
 * Whether this machine can run one: PgBouncer installed (scripts/install-pgbouncer.sh) and root to run it as postgres.
 */
export const statementPoolerAvailable = existsSync(program) && process.getuid?.() === 0;

export interface StatementPooler {
  /** `url` (the server's) with its host and port replaced by the pooler's. */
  through(url: string): string;
  stop(): Promise<void>;
}

const accepts = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1').once('connect', () => { socket.destroy(); resolve(true); })
    .once('error', () => resolve(false));
});

/** Authenticates as the run's pooler does: scram with PGBOUNCER_AUTH_FILE, TLS with PGBOUNCER_TLS_*, else trust. */
export async function startStatementPooler(serverUrl: string): Promise<StatementPooler> {
  const server = new URL(serverUrl);
  const port = await freePort();
  const root = await mkdtemp(join(tmpdir(), 'sighting-statement-pooler-'));
  const { uid, gid } = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
  const users = join(root, 'users.txt');
  if (process.env.PGBOUNCER_AUTH_FILE) await copyFile(process.env.PGBOUNCER_AUTH_FILE, users);
  else await writeFile(users, `"${decodeURIComponent(server.username) || 'postgres'}" ""\n`);
  const tls: string[] = [];
  if (process.env.PGBOUNCER_TLS_CA) {
    for (const [name, from] of [['ca.crt', 'PGBOUNCER_TLS_CA'], ['tls.crt', 'PGBOUNCER_TLS_CERT'],
      ['tls.key', 'PGBOUNCER_TLS_KEY']] as const) {
      await copyFile(process.env[from]!, join(root, name));
      await chown(join(root, name), uid, gid);
    }
    await chmod(join(root, 'tls.key'), 0o600);
    tls.push(`server_tls_sslmode = verify-full`, `server_tls_ca_file = ${root}/ca.crt`, `client_tls_sslmode = require`,
      `client_tls_cert_file = ${root}/tls.crt`, `client_tls_key_file = ${root}/tls.key`);
  }
  await writeFile(join(root, 'pgbouncer.ini'), [
    '[databases]', `* = host=${server.hostname} port=${server.port || 5432}`, '[pgbouncer]',
    'listen_addr = 127.0.0.1', `listen_port = ${port}`, 'unix_socket_dir =',
    `auth_type = ${process.env.PGBOUNCER_AUTH_FILE ? 'scram-sha-256' : 'trust'}`, `auth_file = ${users}`,
    'pool_mode = statement', `logfile = ${root}/pgbouncer.log`, ...tls, '',
  ].join('\n'));
  await chmod(root, 0o755);
  for (const name of ['users.txt', 'pgbouncer.ini']) await chown(join(root, name), uid, gid);
  await chown(root, uid, gid);
  // PgBouncer refuses to run as root.
  const child = spawn('runuser', ['-u', 'postgres', '--', program, join(root, 'pgbouncer.ini')], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  await eventually(() => accepts(port));
  return {
    through(url) {
      const changed = new URL(url);
      changed.hostname = '127.0.0.1';
      changed.port = String(port);
      return changed.toString();
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(root, { recursive: true, force: true });
    },
  };
}
