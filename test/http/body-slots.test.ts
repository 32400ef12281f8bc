// Bodies are worked on a few at a time: a fifth waits for a slot while four are held, requests without a body never
// wait, and a client that leaves while it holds or waits for a slot gives it back.
import { expect } from 'chai';
import express from 'express';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { bodySlots } from '../../src/http/body-slots.ts';
import { eventually } from '../support/condition.ts';

describe('body slots', () => {
  let server: Server;
  let base: string;
  /** Requests past `take`, each waiting for its turn to go on: resolve one to let it reach `release`. */
  const working: Array<() => void> = [];
  let started = 0;
  /** Requests the server has received, and those whose answer it has seen close. */
  let arrived = 0;
  let closed = 0;

  before(async () => {
    const { take, release } = bodySlots(4);
    const app = express();
    app.use((_req, res, next) => {
      arrived += 1;
      res.on('close', () => { closed += 1; });
      next();
    }, take, (_req, _res, next) => {
      started += 1;
      working.push(() => next());
    }, release, (_req, res) => { res.send('done'); });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (signal?: AbortSignal) =>
    fetch(base, { method: 'POST', body: 'x', signal }).then((response) => response.text(), () => 'left');

  it('when four bodies hold slots, ' +
    'then a fifth waits until one is released, and a request without a body never waits', async () => {
    started = 0;
    const held = Array.from({ length: 4 }, () => post());
    await eventually(() => started === 4);
    const fifth = post();
    // Without a body the slot is not needed: it passes `take` while all four are held.
    const bodiless = fetch(base).then((response) => response.text());
    await eventually(() => started === 5);
    working.splice(4, 1)[0]!();
    expect(await bodiless).to.equal('done');
    expect(started).to.equal(5);
    working.shift()!();
    await eventually(() => started === 6);
    while (working.length) working.shift()!();
    expect(await Promise.all([...held, fifth])).to.deep.equal(Array(5).fill('done'));
  });

  it('when clients leave while they hold or wait for a slot, then their slots come back', async () => {
    started = 0;
    const controller = new AbortController();
    const leaving = Array.from({ length: 6 }, () => post(controller.signal));
    await eventually(() => started === 4);
    controller.abort();
    expect(await Promise.all(leaving)).to.deep.equal(Array(6).fill('left'));
    // Until the server has seen each of them close, a slot freed late would start a gone request after the count
    // below was reset (on a loaded machine the count then went past four without ever being four).
    await eventually(() => closed === arrived);
    // The gone clients' work never goes on to `release` (a handler stuck for a client gone): only their leaving frees.
    working.length = 0;
    started = 0;
    // Four at once again: no slot is still held for a client gone.
    const again = Array.from({ length: 4 }, () => post());
    await eventually(() => started === 4);
    while (working.length) working.shift()!();
    expect(await Promise.all(again)).to.deep.equal(Array(4).fill('done'));
  });
});
