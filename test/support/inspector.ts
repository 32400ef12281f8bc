// Reads a child service's heap through the inspector protocol (node --inspect), so no endpoint exists for tests only.
import { eventually } from './condition.ts';
import type { ServiceProcess } from './service-process.ts';

export interface Inspector {
  /** The heap after full garbage collections (the child runs with --expose-gc): used and reserved, in bytes. */
  heapAfterGc(): Promise<{ heapUsed: number; heapTotal: number }>;
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
      const expression = '(() => { for (let i = 0; i < 4; i++) gc(); const { heapUsed, ' +
        'heapTotal } = process.memoryUsage(); return { heapUsed, heapTotal }; })()';
      const { result } = await call('Runtime.evaluate',
        { expression, returnByValue: true }) as { result: { value: { heapUsed: number; heapTotal: number } } };
      return result.value;
    },
    close: () => socket.close(),
  };
}
