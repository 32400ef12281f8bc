// Collects the service's log lines (its `logDestination`), parsed, so tests can assert on what was logged.
import type { DestinationStream } from '../../src/observability/logger.ts';

export interface LogCapture extends DestinationStream {
  /** Every JSON line written so far, parsed. */
  lines: Record<string, unknown>[];
  /** Everything written, as is: for "this text never appears" checks. */
  text(): string;
}

export function captureLog(): LogCapture {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  return {
    lines,
    text: () => raw.join(''),
    write(chunk: string) {
      raw.push(chunk);
      for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
}
