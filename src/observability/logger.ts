// The service's one logger: JSON lines (pino), pretty only for a developer at a terminal.
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { gatheredStandardOutput } from './gathered-lines.ts';
import { serializeError } from './error-serializer.ts';

export type { Logger, DestinationStream };

/**
 * Pretty output needs pino-pretty, a devDependency: a production install (`npm ci --omit=dev`) has none,
 * so it is used only in development, at a terminal, and only when it can be found.
 */
function prettyTransport(config: Config): { target: string } | undefined {
  if (config.NODE_ENV !== 'development' || !process.stdout.isTTY) return undefined;
  try {
    return { target: createRequire(import.meta.url).resolve('pino-pretty') };
  } catch {
    return undefined;
  }
}

/** `destination` replaces standard output (tests read the lines from it). */
export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    base: { service: 'sighting-registry' },
    // `err` anywhere is written by our serializer: type, message, code, stack and causes, never the data.
    serializers: { err: serializeError },
    // Belt and braces: no serializer here writes headers or bodies, but a credential must never reach a log line.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'access_token',
      'password'], censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  const pretty = prettyTransport(config);
  return pretty ? pino({ ...options, transport: pretty }) : pino(options, standardOutput());
}

/**
 * Standard output, written in batches of at least 64 KiB, and at the latest every 250 ms: one write per request line
 * cost about a tenth of a read's CPU time, and one per 4 KiB still a few per cent of a read by id's (each write wakes
 * a thread of libuv's pool on the service's core; docs/benchmarks.md). The lines are gathered apart from pino's
 * destination (src/observability/gathered-lines.ts): its own `minLength` copied the whole batch so far on every line.
 * What is left is written when the process exits (`process.exit` and an uncaught error included); only a process
 * killed outright (SIGKILL) loses its last quarter second of lines.
 */
function standardOutput(): DestinationStream {
  return gatheredStandardOutput(64 * 1024, 250);
}
