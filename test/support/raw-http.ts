// A raw socket client: sends HTTP/1.1 bytes exactly as written and reads the answer, or how the connection ended.
import { connect } from 'node:net';

export interface RawAnswer {
  /** The status code, or undefined when the connection ended without an answer. */
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** How the connection ended: `close` (FIN from the server), or the socket error's code (`ECONNRESET`, …). */
  ending: string;
}

/** Sends `text` to origin (e.g. http://127.0.0.1:41234) and waits for the server to end the connection. */
export function rawHttp(origin: string, text: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let ending = 'close';
    const timer = setTimeout(() => { ending = 'timeout'; socket.destroy(); }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => { ending = error.code ?? error.message; });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parse(Buffer.concat(chunks).toString('latin1')), ending });
    });
    // A write to a socket the server already closed is the answer's business, not a crash of the test.
    socket.write(text, () => socket.end());
  });
}

function parse(raw: string): Omit<RawAnswer, 'ending'> {
  const split = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/1.1 ') || split < 0) return { headers: {}, body: raw };
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim()
      : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
  }
  let body = raw.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

function unchunk(text: string): string {
  let out = '';
  for (let at = 0; at < text.length;) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) break;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return out;
}
