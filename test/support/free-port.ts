// A TCP port on 127.0.0.1 that nothing listens on right now, as the scripts choose theirs (scripts/free-port.sh: below
// the kernel's ephemeral range, so no connection or `listen(0)` takes it before the process it is for binds it).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export async function freePort(): Promise<number> {
  const { stdout } = await promisify(execFile)('scripts/free-port.sh');
  return Number(stdout.trim());
}
