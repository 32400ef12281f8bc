// The one log line a start that failed leaves (what failed and why: a variable or a cause), then a non-zero exit.
import { InvalidConfiguration } from '../config/config.ts';
import { fatalLine } from '../config/fatal-line.ts';
import { DatabaseUnreachable } from '../db/pooler-probe.ts';
import { MigrationNotPermitted, MigrationsPending } from '../db/migrate.ts';
import { MigrationLockTimeout } from '../db/migration-lock.ts';

/**
 * Never a stack trace, an SQL statement, a driver's `detail` or a setting's value (a URL may hold a password): an
 * operator reads the cause, a log pipeline parses one JSON line. The driver's own message and code name the cause
 * well enough ("connect ECONNREFUSED 127.0.0.1:5432", "password authentication failed for user …").
 */
function causeOf(error: unknown): Record<string, unknown> {
  if (error instanceof InvalidConfiguration) return { cause: 'configuration', problems: error.problems };
  if (error instanceof MigrationsPending) return { cause: 'migrations pending', pending: error.pending };
  if (error instanceof MigrationNotPermitted) return { cause: 'migration permission', variable: error.variable,
    reason: error.message };
  if (error instanceof DatabaseUnreachable) return { cause: 'database connection', variable: error.variable,
    host: error.host, reason: error.message };
  if (error instanceof MigrationLockTimeout) return { cause: 'migration lock', reason: error.message,
    holder: error.holder };
  const { code, message, name } = (error ?? {}) as { code?: unknown; message?: unknown; name?: unknown };
  // MikroORM writes a failed statement as `<sql> - <message>\n - detail: …\n - hint: …`: only the message stays.
  const text = typeof message === 'string' ? message.replace(/\n - (detail|hint): [\s\S]*$/,
    '').split(' - ').at(-1)!.trim() : String(error);
  return { cause: typeof code === 'string' ? code : typeof name === 'string' ? name : 'Error', reason: text };
}

export function failedStart(error: unknown): never {
  const cause = causeOf(error);
  return fatalLine(cause,
    `the service could not start: ${'reason' in cause ? String(cause.reason) : (error as Error).message}`);
}
