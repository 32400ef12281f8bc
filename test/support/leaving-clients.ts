// Clients that leave: one that reads part of an answer and closes, one that never reads, over raw sockets.
import { connect, type Socket } from 'node:net';

export interface Call {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function request(origin: string, { method = 'GET', path, headers, body }: Call): Socket {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {
    // The server cutting a client off (a reset) is what some tests wait for.
  });
  const lines = Object.entries({ Host: `${hostname}:${port}`,
    ...headers, ...(body !== undefined && { 'Content-Length': String(Buffer.byteLength(body)) }) })
    .map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`${method} ${path} HTTP/1.1\r\n${lines}\r\n${body ?? ''}`);
  return socket;
}

/** Reads `bytes` of the answer to `call`, then closes the connection; resolves once it has. */
export function readPartAndLeave(origin: string, call: Call, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = request(origin, call);
    let read = 0;
    let text = '';
    socket.on('data', (chunk) => {
      if (read === 0) text = chunk.toString().slice(0, 400);
      read += chunk.length;
      if (read >= bytes) socket.destroy();
    });
    socket.once('close',
      () => (read >= bytes ? resolve() : reject(new Error(`the answer ended after ${read} bytes: ${text}`))));
  });
}

/** Sends `call` and never reads the answer (the test destroys the socket at its end). */
export function neverRead(origin: string, call: Call): Socket {
  const socket = request(origin, call);
  socket.pause();
  return socket;
}

export interface StoppedReader {
  /** What was read before the client stopped reading (raw HTTP: status line, headers, chunked body). */
  text: string;
  destroy(): void;
}

/**
 * Sends `call`, reads the answer until `enough` holds for what was read, then stops reading for good (the socket is
 * paused, so the kernel's buffers fill and the server's writes find it full).
 */
export function readThenStop(origin: string, call: Call, enough: (text: string) => boolean,
  within = 60_000): Promise<StoppedReader> {
  return new Promise((resolve, reject) => {
    const socket = request(origin, call);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    let text = '';
    const late = setTimeout(() => {
      socket.destroy();
      reject(new Error(`not read within ${within} ms: ${text.slice(0, 400)}`));
    }, within);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (!enough(text)) return;
      clearTimeout(late);
      socket.off('data', onData);
      socket.pause();
      resolve({ text, destroy: () => socket.destroy() });
    };
    socket.on('data', onData);
    void closed.then(() => {
      clearTimeout(late);
      reject(new Error(`the answer ended after: ${text.slice(0, 400)}`));
    });
  });
}
