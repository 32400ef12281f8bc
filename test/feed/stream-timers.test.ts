// The open streams' shared timers: every stream beats while it is open, each is expired once its token's time has
// come (streams of one token together, a later token after), and a stream let go of gets neither.
import { expect } from 'chai';
import { StreamTimers } from '../../src/feed/stream-timers.ts';
import { eventually } from '../support/condition.ts';

describe('stream timers', () => {
  /** A stream that counts its beats and notes its expiry, letting go of its timers as an ended stream does. */
  function stream(timers: StreamTimers, expiresAt: number) {
    const seen = { beats: 0, expired: 0, stop: () => timers.remove(timed) };
    const timed = {
      expiresAt,
      beat: () => { seen.beats += 1; },
      expire: () => { seen.expired += 1; seen.stop(); },
    };
    timers.add(timed);
    return seen;
  }

  it('when streams are open, then each beats every period until it is let go of', async () => {
    const timers = new StreamTimers(10);
    const [a, b] = [stream(timers, Date.now() + 3_600_000), stream(timers, Date.now() + 3_600_000)];
    await eventually(() => a.beats >= 3 && b.beats >= 3, { what: 'three beats each' });
    b.stop();
    const stopped = b.beats;
    await eventually(() => a.beats >= stopped + 3, { what: 'three more beats of the open stream' });
    expect(b.beats).to.equal(stopped);
    a.stop();
    expect([a.expired, b.expired]).to.deep.equal([0, 0]);
  });

  it('when tokens expire, then their streams are expired once, in their turn, and the others stay', async () => {
    const timers = new StreamTimers(3_600_000);
    const now = Date.now();
    const [first, alsoFirst, second, later, gone] = [stream(timers, now + 30), stream(timers, now + 30),
      stream(timers, now + 80), stream(timers, now + 3_600_000), stream(timers, now + 50)];
    gone.stop();
    await eventually(() => first.expired && alsoFirst.expired, { what: 'the first token\'s streams expired' });
    await eventually(() => second.expired, { what: 'the second token\'s stream expired' });
    expect([first, alsoFirst, second, later, gone].map(({ expired }) => expired)).to.deep.equal([1, 1, 1, 0, 0]);
    later.stop();
  });

  it('when a stream opens after the earliest expiry was armed with an earlier one, then both expire', async () => {
    const timers = new StreamTimers(3_600_000);
    const late = stream(timers, Date.now() + 60);
    const early = stream(timers, Date.now() + 10);
    await eventually(() => early.expired && late.expired, { what: 'both expired' });
    expect([early.expired, late.expired]).to.deep.equal([1, 1]);
  });
});
