// After a peak of open streams the instance runs one memory-reducing collection, once the streams have stayed at half
// the peak or below for a moment; never while they churn around the peak (src/feed/memory-after-peaks.ts). With
// `afterRises` (the change feed's), also once they have risen to twice what was open at the last collection and
// stopped opening for a moment.
import { expect } from 'chai';
import { memoryAfterPeaks } from '../../src/feed/memory-after-peaks.ts';
import { StreamSlots } from '../../src/feed/stream-slots.ts';
import { eventually } from '../support/condition.ts';

describe('memory after a peak of streams', () => {
  /** A stream count's slots, with the collections V8 would have been asked for. */
  function instance(minimumPeak = 10, afterRises = false) {
    const collections: unknown[] = [];
    const memory = memoryAfterPeaks((options) => void collections.push(options), { quietMs: 50, minimumPeak,
      afterRises });
    const slots = new StreamSlots(100, 100, memory.inUse);
    let callers = 0;
    const open = (count: number) => Array.from({ length: count }, () => {
      const caller = `caller ${callers++}`;
      expect(slots.take(caller)).to.equal(undefined);
      return () => slots.free(caller);
    });
    return { collections, memory, open };
  }

  it('when 20 streams open and 12 of them close, then one memory-reducing collection runs', async () => {
    const { collections, memory, open } = instance();
    const streams = open(20);
    for (const free of streams.slice(0, 12)) free();
    expect(memory.scheduled).to.equal(true);
    await eventually(() => collections.length === 1);
    expect(collections).to.deep.equal([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
    expect(memory.scheduled).to.equal(false);
  });

  it('when streams come back above half the peak before the quiet moment, then no collection waits', () => {
    const { memory, open } = instance();
    const streams = open(20);
    for (const free of streams.slice(0, 10)) free();
    expect(memory.scheduled).to.equal(true);
    open(1);
    expect(memory.scheduled).to.equal(false);
  });

  it('when streams churn above half their peak, or the peak is small, then no collection is asked for', () => {
    const churn = instance();
    const streams = churn.open(20);
    for (let i = 0; i < 9; i++) {
      streams[i]!();
      churn.open(1);
    }
    expect(churn.memory.scheduled).to.equal(false);
    const small = instance(30);
    for (const free of small.open(20)) free();
    expect(small.memory.scheduled).to.equal(false);
  });

  it('when a collection ran, then the next waits for the streams to fall to half of what was open then', async () => {
    const { collections, memory, open } = instance();
    const streams = open(40);
    for (const free of streams.slice(0, 24)) free();
    await eventually(() => collections.length === 1);
    streams[24]!();
    expect(memory.scheduled).to.equal(false);
    for (const free of streams.slice(25, 33)) free();
    expect(memory.scheduled).to.equal(true);
    await eventually(() => collections.length === 2);
  });

  it('when 20 streams open and stay open, then one collection runs after the opening, and the next once twice as ' +
    'many are open', async () => {
    const { collections, memory, open } = instance(10, true);
    open(9);
    expect(memory.scheduled, 'a rise smaller than the minimum').to.equal(false);
    open(11);
    expect(memory.scheduled).to.equal(true);
    await eventually(() => collections.length === 1);
    open(19);
    expect(memory.scheduled, 'below twice the 20 collected at').to.equal(false);
    open(1);
    expect(memory.scheduled).to.equal(true);
    await eventually(() => collections.length === 2);
    expect(collections[1]).to.deep.equal({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  });

  it('when streams open and close below twice the count collected at, then no collection waits', async () => {
    const { collections, memory, open } = instance(10, true);
    const streams = open(20);
    await eventually(() => collections.length === 1);
    for (let i = 0; i < 10; i++) {
      streams[i]!();
      open(1);
    }
    expect(memory.scheduled).to.equal(false);
    const rising = open(20);
    expect(memory.scheduled).to.equal(true);
    rising[0]!();
    expect(memory.scheduled, 'back below twice 20').to.equal(false);
  });
});
