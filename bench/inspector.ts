// A session with a server's inspector (`--inspect=127.0.0.1:<port>` in its NODE_OPTIONS), over the WebSocket the
// inspector listens on: what the benchmarks ask of the process being measured, from outside it.
import { once } from 'node:events';

export interface InspectorSession {
  /** Sends one method of the DevTools protocol and waits for its answer's result. */
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
}

export async function openInspector(port: number): Promise<InspectorSession> {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as [{ webSocketDebuggerUrl: string }];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await once(socket, 'open');
  const waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const caller = message.id === undefined ? undefined : waiting.get(message.id);
    if (!caller) return;
    waiting.delete(message.id!);
    if (message.error) caller.reject(new Error(message.error.message));
    else caller.resolve(message.result);
  });
  let lastId = 0;
  return {
    call: <T>(method: string, params: Record<string, unknown> = {}) => new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    }),
    close: () => socket.close(),
  };
}
