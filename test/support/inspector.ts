// Reads a child service's heap, or keeps its event loop busy, through the inspector protocol (node --inspect), so no
// endpoint exists for tests only.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './condition.ts';
import type { ServiceProcess } from './service-process.ts';

export interface Inspector {
  /**
   * The heap after full garbage collections (the child runs with --expose-gc), in bytes: used, and reserved beyond the
   * young generation. That generation's reservation is V8's sizing for the allocation rate, not memory a request kept:
   * 134 of the 196 MB reserved after the collections in test/ops/memory-per-request.test.ts, all of it empty, and
   * when it grows to that depends on the machine's pace (a busy CI machine's whole reservation grew 63.5 MB during the
   * measured rounds while the used heap stayed).
   */
  heapAfterGc(): Promise<{ heapUsed: number; heapReserved: number }>;
  /**
   * Resolves once the service's event loop is busy (a CPU-bound loop on its main thread) and stays so until `release`
   * is called: meanwhile the kernel accepts connections and receives requests that the service does not read.
   */
  occupy(): Promise<{ release(): Promise<void> }>;
  close(): void;
}

/** Connects to the inspector a child started with `--inspect=127.0.0.1:0` announces on its standard error. */
export async function inspect(service: ServiceProcess): Promise<Inspector> {
  const url = await eventually(() => /Debugger listening on (ws:\/\/\S+)/.exec(service.other.join(''))?.[1]);
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (method: string, params: Record<string, unknown> = {}) => new Promise<unknown>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });
  return {
    async heapAfterGc() {
      // Several rounds: a first full collection can leave what only a finalizer frees for the next.
      // A function, so nothing is declared in the service's global scope.
      const expression = '(() => { for (let i = 0; i < 4; i++) gc(); const { heapUsed, heapTotal } = ' +
        'process.memoryUsage(); const young = process.getBuiltinModule("node:v8").getHeapSpaceStatistics()' +
        '.find((space) => space.space_name === "new_space")?.space_size ?? 0; ' +
        'return { heapUsed, heapReserved: heapTotal - young }; })()';
      const { result } = await call('Runtime.evaluate',
        { expression, returnByValue: true }) as { result: { value: { heapUsed: number; heapReserved: number } } };
      return result.value;
    },
    async occupy() {
      const directory = mkdtempSync(join(tmpdir(), 'occupied-'));
      const [started, released] = [join(directory, 'started'), join(directory, 'released')];
      const expression = `(() => { const fs = process.getBuiltinModule('node:fs'); ` +
        `fs.writeFileSync(${JSON.stringify(started)}, ''); while (!fs.existsSync(${JSON.stringify(released)})); })()`;
      const answered = call('Runtime.evaluate', { expression });
      await eventually(() => existsSync(started), { what: 'the service\'s loop to be occupied' });
      return {
        async release() {
          writeFileSync(released, '');
          await answered;
          rmSync(directory, { recursive: true });
        },
      };
    },
    close: () => socket.close(),
  };
}
