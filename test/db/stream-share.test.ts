// The share of the pool that streamed reads hold: a read whose answer has begun and comes back for a place after its
// client paused goes ahead of every read not begun and is never refused, since a refusal could only cut its answer.
import { expect } from 'chai';
import { StreamShare } from '../../src/db/stream-share.ts';
import { ServiceUnavailable } from '../../src/errors/app-errors.ts';

describe('the streamed reads\' share of the pool', () => {
  /** Records the order in which waits got their place; each gives it back when the test says. */
  function ledger() {
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const got = (name: string) => (release: () => void) => {
      order.push(name);
      releases.set(name, release);
    };
    return { order, give: (name: string) => releases.get(name)!(), got };
  }

  it('when a read resumes while reads not begun wait, then it gets the next place, ahead of them', async () => {
    const share = new StreamShare(1, 60_000, 300);
    const { order, give, got } = ledger();
    got('holder')(await share.take());
    const first = share.take().then(got('first not begun'));
    const resumed = share.resume().then(got('resuming'));
    const second = share.take().then(got('second not begun'));
    give('holder');
    await resumed;
    give('resuming');
    await first;
    give('first not begun');
    await second;
    expect(order).to.deep.equal(['holder', 'resuming', 'first not begun', 'second not begun']);
  });

  it('when the queue of reads not begun is full, then a new one is refused with 503 at once, ' +
    'and a resuming read still waits and gets the next place', async () => {
    const share = new StreamShare(1, 60_000, 300);
    const { order, give, got } = ledger();
    got('holder')(await share.take());
    const waiting = Array.from({ length: share.maxWaiting }, (_, at) => share.take().then(got(`waiting ${at}`)));
    const refused = await share.take().then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(ServiceUnavailable);
    const resumed = share.resume().then(got('resuming'));
    expect(share.waiting).to.equal(share.maxWaiting + 1);
    give('holder');
    await resumed;
    for (let at = 0; at < waiting.length; at++) {
      give(order.at(-1)!);
      await waiting[at];
    }
    expect(order.slice(0, 3)).to.deep.equal(['holder', 'resuming', 'waiting 0']);
  });

  it('when reads wait past the wait bound, then the one not begun is refused and the resuming one still gets ' +
    'a place', async () => {
    const share = new StreamShare(1, 20, 300);
    const { order, give, got } = ledger();
    got('holder')(await share.take());
    const resumed = share.resume().then(got('resuming'));
    const refused = await share.take().then(() => undefined, (error: unknown) => error);
    expect(refused).to.be.instanceOf(ServiceUnavailable);
    expect(share.waiting).to.equal(1);
    give('holder');
    await resumed;
    expect(order).to.deep.equal(['holder', 'resuming']);
  });

  it('when a resuming read\'s client goes while it waits, then it leaves the queue and the place goes on', async () => {
    const share = new StreamShare(1, 60_000, 300);
    const { order, give, got } = ledger();
    got('holder')(await share.take());
    const gone = new AbortController();
    const left = share.resume(gone.signal).then(() => 'got a place', () => 'left');
    const next = share.take().then(got('not begun'));
    gone.abort(new Error('client gone'));
    expect(await left).to.equal('left');
    give('holder');
    await next;
    expect([order, share.waiting]).to.deep.equal([['holder', 'not begun'], 0]);
  });
});
