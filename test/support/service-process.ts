// Runs the service as an operator does, `node src/server.ts` in a process of its own, and reads its JSON log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { refuseOwnDatabase } from './own-databases.ts';
import { forgetTokensOf } from './tokens.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Every JSON line written to standard output so far, parsed; anything else it wrote, as text. */
  lines: Record<string, unknown>[];
  other: string[];
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  /**
   * Resolves with the first line that satisfies `test`; rejects when the process ends without one, or when `within`
   * ms (default 90 s: a start on a busy machine) have passed.
   */
  lineWhere(test: (line: Record<string, unknown>) => boolean, within?: number): Promise<Record<string, unknown>>;
}

/**
 * `env` is the whole environment the service sees, besides PATH, HOME and the run's PostgreSQL password
 * (PGPASSWORD, where scripts/postgres-production.sh keeps the app role's): nothing else leaks in.
 * `nodeArguments` go before the script (`--expose-gc`, `--inspect=127.0.0.1:0`).
 */
export function spawnService(env: Record<string, string>, nodeArguments: string[] = []): ServiceProcess {
  refuseOwnDatabase('spawnService');
  const password = process.env.PGPASSWORD === undefined ? {} : { PGPASSWORD: process.env.PGPASSWORD };
  const child = spawn(process.execPath, [...nodeArguments, 'src/server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...password, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const other: string[] = [];
  const waiting = new Set<() => void>();
  let buffered = '';
  const take = (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts.filter(Boolean)) {
      try {
        lines.push(JSON.parse(part) as Record<string, unknown>);
      } catch {
        other.push(part);
      }
    }
    for (const check of waiting) check();
  };
  child.stdout!.setEncoding('utf8').on('data', take);
  child.stderr!.setEncoding('utf8').on('data', (text: string) => other.push(text));
  let ended = false;
  // 'close', not 'exit': the process's last lines have been read by then.
  const exited = once(child, 'close').then(([code]) => {
    ended = true;
    const start = lines.find(isStartLine);
    if (start) forgetTokensOf(new URL(start.url as string).origin);
    for (const check of waiting) check();
    return code as number | null;
  });

  function lineWhere(test: (line: Record<string, unknown>) => boolean,
    within = 90_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const written = () => [...lines.map((line) => JSON.stringify(line)), ...other].join('\n');
      const settle = (found: Record<string, unknown> | Error) => {
        waiting.delete(check);
        clearTimeout(deadline);
        if (found instanceof Error) reject(found);
        else resolve(found);
      };
      const check = () => {
        const found = lines.find(test);
        if (found) settle(found);
        else if (ended) settle(new Error(`the service ended without such a line; it wrote:\n${written()}`));
      };
      const deadline = setTimeout(() =>
        settle(new Error(`no such line within ${within} ms; the service wrote:\n${written()}`)), within);
      waiting.add(check);
      check();
    });
  }
  return { child, lines, other, exited, lineWhere };
}

/** The line a service writes once it listens, with its URLs. */
function isStartLine(line: Record<string, unknown>): boolean {
  return typeof line.url === 'string' && typeof line.page === 'string';
}

/** The URLs of a started service, read from its start line; `within` bounds the wait as `lineWhere`'s does. */
export async function listening(service: ServiceProcess, within?: number):
  Promise<{ url: string; api: string; management?: string }> {
  const line = await service.lineWhere(isStartLine, within);
  const api = line.url as string;
  return { api, url: new URL(api).origin, management: line.management as string | undefined };
}
