// Log lines gathered into batches before pino's own asynchronous destination writes them: one copy of each line,
// not one of the whole batch so far per line.
import { pino, type DestinationStream } from 'pino';

/**
 * sonic-boom with `minLength` appends each line to the batch's string and measures it with `Buffer.byteLength`, which
 * flattens (copies) the whole batch so far on every line: about 4.5 KiB allocated per request line. Here a line is
 * only kept in a list; the list is joined once it holds `minLength` characters, or every `flushEveryMs`, and the one
 * string handed to `destination` (pino.destination without `minLength`: it writes at once, asynchronously, and keeps
 * what comes while a write is under way). `flush` and the process's exit hand over what is gathered first, so a
 * clean stop or a crash (an uncaught error, `process.exit`) loses no line; only SIGKILL loses the last `flushEveryMs`.
 */
export class GatheredLines implements DestinationStream {
  readonly #destination: ReturnType<typeof pino.destination>;
  readonly #minLength: number;
  #lines: string[] = [];
  #length = 0;

  constructor(destination: ReturnType<typeof pino.destination>, minLength: number, flushEveryMs: number) {
    this.#destination = destination;
    this.#minLength = minLength;
    setInterval(() => this.#handOver(), flushEveryMs).unref();
    // First of the exit's listeners: before pino's own, which writes what the destination holds and then ends it.
    process.prependOnceListener('exit', () => {
      this.#handOver();
      this.#destination.flushSync();
    });
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#length += line.length;
    if (this.#length >= this.#minLength) this.#handOver();
  }

  /** Hands over what is gathered and calls back once the destination has written it. */
  flush(callback?: (error?: Error) => void): void {
    this.#handOver();
    this.#destination.flush(callback);
  }

  #handOver(): void {
    if (!this.#length) return;
    const batch = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
    this.#lines = [];
    this.#length = 0;
    this.#destination.write(batch);
  }
}

/** Standard output, in batches of at least `minLength` characters, and at the latest every `flushEveryMs`. */
export function gatheredStandardOutput(minLength: number, flushEveryMs: number): GatheredLines {
  return new GatheredLines(pino.destination({ dest: 1, sync: false }), minLength, flushEveryMs);
}
