// A bound on an answer over I/O measures the answer's lateness, not the event loop's: an answer that arrived while the
// loop was held past the bound is the answer.
import { expect } from 'chai';
import { MessageChannel } from 'node:worker_threads';
import { settledWithin } from '../../src/db/bounded-cursor.ts';
import { holdLoop } from '../support/hold-loop.ts';

describe('a bound on an answer over I/O', () => {
  it('when the answer arrived while the event loop was held past the bound, then it is the answer', async () => {
    // A message port's message is read with the loop's I/O, as a socket's data is.
    const { port1, port2 } = new MessageChannel();
    const answer = new Promise<unknown>((resolve) => port2.once('message', resolve));
    let lateCalls = 0;
    const settled = settledWithin(answer, 20, () => {
      lateCalls += 1;
      return Promise.resolve('late');
    });
    port1.postMessage('answer');
    holdLoop(100);
    expect({ settled: await settled, lateCalls }).to.deep.equal({ settled: 'answer', lateCalls: 0 });
    port1.close();
  });

  it('when no answer comes within the bound, then it is late', async () => {
    const settled = settledWithin(new Promise<never>(() => {}), 20, () => Promise.resolve('late'));
    expect(await settled).to.equal('late');
  });
});
