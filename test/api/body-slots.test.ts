// Bodies are read a few at a time: while four are half-sent a fifth waits unread, a read by id is answered at once,
// and a client that leaves while it waits or is read gives its slot back.
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { rawRequest } from '../support/api-client.ts';
import { samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';

describe('body slots', () => {
  let service: TestService;
  before(async () => { service = await startService(); });
  after(async () => { await service.stop(); });

  /** A POST on a connection of its own, its body cut after `sent` bytes of `body`; `answered` resolves with the status line. */
  async function post(body: string, sent = body.length): Promise<{ socket: Socket; answered: Promise<string>; status: () => string | undefined; rest(): void }> {
    const { hostname, port } = new URL(service.url);
    const token = await tokenFor(service.realm, 'alice');
    const socket = connect(Number(port), hostname);
    let text = '';
    let done = false;
    const answered = new Promise<string>((resolve) => {
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (!done && text.includes('\r\n')) { done = true; resolve(text.split('\r\n')[0]!); }
      });
      socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    });
    socket.on('error', () => undefined);
    socket.write(`POST ${new URL(service.api).pathname}/sighting/qbe HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, sent)}`);
    return { socket, answered, status: () => (done ? text.split('\r\n')[0] : undefined), rest: () => socket.write(body.slice(sent)) };
  }
  const inFlight = async () => (await samples(service.url, 'http_requests_in_flight')).get('') ?? 0;
  const example = JSON.stringify({ sightingMemo: 'unheimlich' });

  it('when four bodies are half-sent, then a fifth waits unread while a read by id is answered; each goes on once a slot frees', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => post(example, 5)));
    await eventually(async () => (await inFlight()) >= 5);
    const fifth = await post(example);
    await eventually(async () => (await inFlight()) >= 6);
    const read = await rawRequest(service, 'GET', '/sighting/-1');
    expect({ read: read.status, fifth: fifth.status() }).to.deep.equal({ read: 200, fifth: undefined });
    held[0]!.rest();
    expect(await held[0]!.answered).to.equal('HTTP/1.1 200 OK');
    expect(await fifth.answered).to.equal('HTTP/1.1 200 OK');
    for (const request of held.slice(1)) request.rest();
    expect(await Promise.all(held.slice(1).map(({ answered }) => answered))).to.deep.equal(Array(3).fill('HTTP/1.1 200 OK'));
    for (const { socket } of [...held, fifth]) socket.destroy();
  });

  it('when clients leave while their bodies are read or wait for a slot, then their slots come back', async () => {
    const leaving = await Promise.all(Array.from({ length: 6 }, () => post(example, 5)));
    await eventually(async () => (await inFlight()) >= 7);
    for (const { socket } of leaving) socket.destroy();
    await eventually(async () => (await inFlight()) <= 1);
    // Four at once again: none is held by a client gone.
    const next = await Promise.all(Array.from({ length: 4 }, () => post(example, 5)));
    for (const request of next) request.rest();
    expect(await Promise.all(next.map(({ answered }) => answered))).to.deep.equal(Array(4).fill('HTTP/1.1 200 OK'));
    for (const { socket } of next) socket.destroy();
  });
});
