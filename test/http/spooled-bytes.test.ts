// The spool between an export's database and its client: every byte taken once and in order, whether it waited in
// memory or in the file, and a giver that waits only while both are full.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { SpooledBytes } from '../../src/http/spooled-bytes.ts';

/** Takes everything, now and then letting the giver run ahead, and gives the bytes in the order taken. */
async function takeAll(spool: SpooledBytes, turnsBetween: () => number): Promise<Buffer> {
  const taken: Buffer[] = [];
  for (let piece = await spool.take(); piece !== undefined; piece = await spool.take()) {
    taken.push(Buffer.from(piece));
    for (let turn = turnsBetween(); turn > 0; turn--) await new Promise((resolve) => setImmediate(resolve));
  }
  return Buffer.concat(taken);
}

describe('spooled bytes', () => {
  it('when a giver outruns a slow taker through a small memory and a small ring file, then the taker gets every ' +
    'byte once, in order', async () => {
    const spool = new SpooledBytes(1000, 4096);
    const pieces = Array.from({ length: 300 }, (_, index) => randomBytes(1 + (index * 37) % 700));
    let turn = 0;
    const taking = takeAll(spool, () => (turn++ % 7 === 0 ? 20 : 0));
    for (const piece of pieces) await spool.give(piece);
    spool.end();
    expect((await taking).equals(Buffer.concat(pieces))).to.equal(true);
    await spool.close();
  });

  it('when memory and file are full, then the giver waits until the taker makes room', async () => {
    const spool = new SpooledBytes(10, 100);
    await spool.give(Buffer.alloc(10, 1));
    await spool.give(Buffer.alloc(100, 2));
    let kept = false;
    const giving = spool.give(Buffer.alloc(50, 3)).then(() => { kept = true; });
    await new Promise((resolve) => setImmediate(resolve));
    expect(kept, 'kept while full').to.equal(false);
    expect((await spool.take())!.equals(Buffer.alloc(10, 1))).to.equal(true);
    expect(kept, 'kept when memory alone made room').to.equal(false);
    const fromFile = await spool.take();
    await giving;
    expect(fromFile!.equals(Buffer.alloc(100, 2))).to.equal(true);
    spool.end();
    expect((await spool.take())!.equals(Buffer.alloc(50, 3))).to.equal(true);
    expect(await spool.take()).to.equal(undefined);
    await spool.close();
  });

  it('when the taker stops while the giver waits for room, then the giver goes on, keeping nothing', async () => {
    const spool = new SpooledBytes(0, 10);
    await spool.give(Buffer.alloc(10));
    const giving = spool.give(Buffer.alloc(5));
    spool.stop();
    await giving;
    expect(spool.stopped).to.equal(true);
    await spool.close();
  });

  it('when the giver fails, then the taker gets what came before and then the failure', async () => {
    const spool = new SpooledBytes(100, 100);
    await spool.give(Buffer.from('rows'));
    spool.end(new Error('the database went away'));
    expect((await spool.take())!.toString()).to.equal('rows');
    let failure: unknown;
    await spool.take().catch((error: unknown) => { failure = error; });
    expect(failure).to.have.property('message', 'the database went away');
  });
});
