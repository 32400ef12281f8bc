// The one JSON log line a start that failed leaves, written before the process exits non-zero.
import { pino } from 'pino';

/** Writes `fields` and `msg` as one fatal line on standard output (synchronously: nothing is lost at the exit). */
export function fatalLine(fields: Record<string, unknown>, msg: string): never {
  const logger = pino({ base: { service: 'sighting-registry' } }, pino.destination({ dest: 1, sync: true }));
  logger.fatal(fields, msg);
  process.exit(1);
}
