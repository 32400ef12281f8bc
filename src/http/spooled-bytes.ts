// Bytes on their way from a fast source (an export's COPY) to a client that may be slower, or pause: what the client
// has not taken yet waits in memory up to a bound, then in a temporary file, so the source (and the database connection
// it holds) never waits for the client unless the file is full too.
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A read from the file takes at most this much: a piece a response write takes at once. */
const readBytes = 256 * 1024;

export class SpooledBytes {
  readonly #memoryBound: number;
  readonly #fileBound: number;
  #memory: Buffer[] = [];
  #memoryBytes = 0;
  #file: FileHandle | undefined;
  /** Bytes ever put in the file and taken from it: the difference is what waits there. */
  #written = 0;
  #read = 0;
  #ended = false;
  #failure: unknown;
  /** The taker waits for bytes, the giver for room: each settles at the other's next move. */
  #bytesCame: (() => void) | undefined;
  #roomMade: (() => void) | undefined;

  constructor(memoryBound: number, fileBound: number) {
    this.#memoryBound = memoryBound;
    this.#fileBound = fileBound;
  }

  #stopped = false;

  /** The taker has gone (`stop`): nothing more is kept. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * Keeps `bytes` after those before; resolves once they are kept, waiting while memory and file are both full. Once
   * stopped, keeps nothing.
   */
  async give(bytes: Buffer): Promise<void> {
    if (this.#stopped) return;
    // Once any bytes wait in the file, later ones go after them there: the order is memory, then file.
    if (this.#written === this.#read && this.#memoryBytes + bytes.length <= this.#memoryBound) {
      this.#memory.push(bytes);
      this.#memoryBytes += bytes.length;
    } else {
      while (this.#written - this.#read + bytes.length > this.#fileBound) {
        await new Promise<void>((made) => { this.#roomMade = made; });
        if (this.#stopped) return;
      }
      const file = this.#file ??= await spoolFile();
      // The file is a ring of `#fileBound` bytes: a piece that reaches its end goes on at its start.
      const at = this.#written % this.#fileBound;
      const first = Math.min(bytes.length, this.#fileBound - at);
      await file.write(bytes, 0, first, at);
      if (first < bytes.length) await file.write(bytes, first, bytes.length - first, 0);
      this.#written += bytes.length;
    }
    this.#wake();
  }

  /** No more bytes will come; with `failure`, the taker gets it once it has taken what came before. */
  end(failure?: unknown): void {
    this.#ended = true;
    this.#failure = failure;
    this.#wake();
  }

  /** The next bytes in order; undefined once the giver has ended and all is taken, or once stopped. */
  async take(): Promise<Buffer | undefined> {
    for (;;) {
      if (this.#stopped) return undefined;
      const bytes = this.#memory.shift();
      if (bytes) {
        this.#memoryBytes -= bytes.length;
        return bytes;
      }
      if (this.#written > this.#read) return this.#fromFile();
      if (this.#ended) {
        if (this.#failure !== undefined) throw this.#failure;
        return undefined;
      }
      await new Promise<void>((came) => { this.#bytesCame = came; });
    }
  }

  /** The taker has gone: nothing more is kept or taken, and a giver waiting for room, or a take, goes on at once. */
  stop(): void {
    this.#stopped = true;
    this.#makeRoom();
    this.#wake();
  }

  /** Lets the file go; its name was unlinked when it was made, so nothing stays on disk. */
  async close(): Promise<void> {
    await this.#file?.close();
    this.#file = undefined;
  }

  async #fromFile(): Promise<Buffer> {
    const at = this.#read % this.#fileBound;
    const length = Math.min(readBytes, this.#written - this.#read, this.#fileBound - at);
    const { buffer, bytesRead } = await this.#file!.read(Buffer.allocUnsafe(length), 0, length, at);
    this.#read += bytesRead;
    this.#makeRoom();
    return buffer.subarray(0, bytesRead);
  }

  #makeRoom(): void {
    const made = this.#roomMade;
    this.#roomMade = undefined;
    made?.();
  }

  #wake(): void {
    const came = this.#bytesCame;
    this.#bytesCame = undefined;
    came?.();
  }
}

/** A file of the system's temporary folder whose name is gone at once: it is freed however the process ends. */
async function spoolFile(): Promise<FileHandle> {
  const folder = await mkdtemp(join(tmpdir(), 'sighting-export-'));
  try {
    return await open(join(folder, 'spool'), 'w+');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
